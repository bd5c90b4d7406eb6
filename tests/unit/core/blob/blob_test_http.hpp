#pragma once
// The blob route tests' HTTP exchanges: one per call, each on a fresh connection.

#include <string>

#include "unit/core/http/http_test_client.hpp"

namespace loupe::blob_test {

using HttpAnswer = http_test::Reply;
using HttpCall = http_test::Call;

inline HttpAnswer http_send(int port, const HttpCall& call) {
    return http_test::Client(port, 30).send(call);  // large uploads under sanitizers take time
}

inline HttpAnswer http_get(int port, const std::string& target) {
    return http_send(port, {"GET", target, {}, {}, false});
}

}  // namespace loupe::blob_test
