#pragma once
// The parts of a request head that decide how long its body is, checked before anything reads
// the body. Two parsers that disagree on where a body ends let a second request hide inside
// the first (request smuggling), so any head a front proxy could read differently is refused
// (RFC 9112 §6.1, §6.3): Content-Length together with Transfer-Encoding, a Transfer-Encoding
// other than one plain "chunked" on HTTP/1.1, a Content-Length that is not one decimal number,
// and a head with more header fields than the parser kept.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

struct RequestHead {
    std::string_view http_version;  ///< "1.1", "1.0"
    std::size_t target_length = 0;  ///< bytes of the request target (path and query)
    std::size_t field_bytes = 0;    ///< bytes of the header fields (names and values)
    std::vector<std::pair<std::string_view, std::string_view>> fields;  ///< in order, as received
    bool fields_truncated = false;  ///< the parser stopped keeping fields: some may be missing
};

struct HeadProblem {
    int status = 400;
    std::string message;
};

/// Longest request target accepted (414 above).
inline constexpr std::size_t max_request_target_bytes = 8 * 1024;
/// Most header field bytes accepted (431 above). civetweb's own buffer is larger, so that a
/// head over this limit still reaches the check; past that buffer civetweb can only say 400.
inline constexpr std::size_t max_request_field_bytes = 16 * 1024;

/// What is wrong with the head, or nullopt when its body framing is unambiguous.
LOUPE_API std::optional<HeadProblem> check_request_head(const RequestHead& head);

}  // namespace loupe
