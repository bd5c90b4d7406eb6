#include "builds_client.hpp"

#include <doctest/doctest.h>

#include "loupe/crypto/digest.hpp"

namespace loupe::test {

Blob blob_with_bytes(std::string bytes) {
    Blob blob;
    blob.bytes = std::move(bytes);
    blob.key = crypto::sha256_hex(blob.bytes);
    return blob;
}

Blob make_blob(const std::string& seed) {
    return blob_with_bytes("\x89PNG fake screenshot " + seed);
}

int upload(const std::string& put_url, const std::string& bytes, const std::string& content_type) {
    return http(HttpCall{"PUT", put_url, bytes, content_type, std::nullopt, {}}).status;
}

HttpResult create_build(const TestServer& server, const nlohmann::json& body,
                        std::optional<std::string> token) {
    return http_json("POST", server.base_url() + "/v2/builds", body,
                     token ? *token : server.project_token());
}

nlohmann::json push_build(const TestServer& server, const std::vector<Blob>& blobs,
                          nlohmann::json extra) {
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& blob : blobs) {
        keys.push_back(blob.key);
    }
    nlohmann::json body = {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", keys}};
    body.update(extra);
    auto created = create_build(server, body);
    REQUIRE(created.status == 201);
    auto response = created.json();
    for (const auto& target : response["screenshots"]) {
        for (const auto& blob : blobs) {
            if (blob.key == target["key"]) {
                REQUIRE(upload(target["putUrl"], blob.bytes) == 200);
            }
        }
    }
    nlohmann::json screenshots = nlohmann::json::array();
    for (std::size_t i = 0; i < blobs.size(); ++i) {
        screenshots.push_back({{"key", blobs[i].key}, {"name", "shot-" + std::to_string(i)}});
    }
    auto updated = http_json(
        "PUT", server.base_url() + "/v2/builds/" + response["build"]["id"].get<std::string>(),
        {{"screenshots", screenshots}}, server.project_token());
    REQUIRE(updated.status == 200);
    return updated.json()["build"];
}

}  // namespace loupe::test
