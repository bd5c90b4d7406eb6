#pragma once
// Helpers for driving the builds API of a test server.

#include <string>
#include <vector>

#include "support/http_client.hpp"
#include "support/server_process.hpp"

namespace loupe::test {

/// A fake but valid file whose SHA-256 is its key.
struct Blob {
    std::string bytes;
    std::string key;
};
Blob make_blob(const std::string& seed);
/// These exact bytes with their SHA-256 key.
Blob blob_with_bytes(std::string bytes);

inline const std::string commit_a = std::string(40, 'a');
inline const std::string commit_b = std::string(40, 'b');

/// PUTs bytes to a putUrl; returns the status.
int upload(const std::string& put_url, const std::string& bytes,
           const std::string& content_type = "image/png");

/// POST /v2/builds with the body; bearer = project token by default.
HttpResult create_build(const TestServer& server, const nlohmann::json& body,
                        std::optional<std::string> token = std::nullopt);
/// Creates a build for the blobs, uploads them, PUTs them as screenshots named name-0, ...
nlohmann::json push_build(const TestServer& server, const std::vector<Blob>& blobs,
                          nlohmann::json extra = nlohmann::json::object());

}  // namespace loupe::test
