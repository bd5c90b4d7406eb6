// GET /blobs/{key}: blobs served back through signed URLs (the `url` fields of responses).

#include <doctest/doctest.h>

#include "unit/core/blob/blob_test_server.hpp"
#include "unit/core/http/http_test_client.hpp"

namespace loupe {

namespace {

constexpr int64_t ttl_ms = 10 * 60 * 1000;

std::vector<uint8_t> as_bytes(const std::string& text) {
    return {text.begin(), text.end()};
}

}  // namespace

TEST_CASE("GET /blobs: a signed URL serves the bytes with the signed type") {
    test::BlobTestServer server;
    const std::string bytes = test::random_bytes(90 * 1024, 31);
    const std::string key = server.store.put(as_bytes(bytes));
    test::HttpTestClient client(server.port);

    const test::HttpResult image =
        client.get(server.target(server.store.signed_get_url(key, "image/png", ttl_ms)));
    REQUIRE(image.status == 200);
    CHECK(image.body == bytes);
    CHECK(image.header("Content-Type") == "image/png");
    CHECK_FALSE(image.header("Content-Disposition"));
    CHECK(image.header("ETag") == "\"" + key + "\"");
    CHECK(image.header("X-Content-Type-Options") == "nosniff");
    const std::string cache = image.header("Cache-Control").value_or("");
    REQUIRE(cache.starts_with("private, max-age="));
    const int max_age = std::stoi(cache.substr(cache.find('=') + 1));
    CHECK(max_age > 590);
    CHECK(max_age <= 600);

    // Anything but a raster image is a download, never a page of Loupe's origin.
    for (const std::string type : {"text/html", "image/svg+xml", "application/json"}) {
        const test::HttpResult other =
            client.get(server.target(server.store.signed_get_url(key, type, ttl_ms)));
        CHECK(other.status == 200);
        CHECK(other.header("Content-Type") == type);
        CHECK(other.header("Content-Disposition") == "attachment");
    }

    const std::string target = server.target(server.store.signed_get_url(key, "image/png", 5000));
    const test::HttpResult head = client.send({"HEAD", "/v2" + target, {}, {}, false});
    CHECK(head.status == 200);
    CHECK(head.header("Content-Length") == std::to_string(bytes.size()));
    CHECK(head.header("Cache-Control").value_or("").starts_with("private, max-age="));
    CHECK(head.body.empty());
}

TEST_CASE("GET /blobs: a bad or expired signature is a 403, a missing blob a 404") {
    test::BlobTestServer server;
    const std::string key = server.store.put(as_bytes("held"));
    test::HttpTestClient client(server.port);
    const Json refused = {{"error", "Invalid or expired download signature"}};
    const int64_t later = now_ms() / 1000 + 60;
    const auto target = [&](const std::string& method, const std::string& blob, int64_t expires,
                            const std::string& signed_type, const std::string& sent_type) {
        return "/blobs/" + blob + "?expires=" + std::to_string(expires) +
               "&contentType=" + sent_type +
               "&signature=" + server.store.signer().sign(method, blob, signed_type, expires);
    };

    CHECK(client.get(target("GET", key, later, "image/png", "image/png")).status == 200);
    for (const std::string& refused_target :
         {target("GET", key, now_ms() / 1000 - 1, "image/png", "image/png"),
          target("PUT", key, later, "image/png", "image/png"),
          target("GET", key, later, "image/png", "text/html"), "/blobs/" + key}) {
        CAPTURE(refused_target);
        const test::HttpResult result = client.get(refused_target);
        CHECK(result.status == 403);
        CHECK(result.json() == refused);
    }

    const std::string absent = test::sha256_hex("never uploaded");
    const test::HttpResult missing = client.get(target("GET", absent, later, "image/png", "image/png"));
    CHECK(missing.status == 404);
    CHECK(missing.json() == Json{{"error", "Not found"}});
    CHECK(client.get("/blobs/not-a-key?expires=1&contentType=a&signature=b").status == 404);
}

}  // namespace loupe
