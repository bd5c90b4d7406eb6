// GET /blobs/{key}: blobs served back through signed URLs (the `url` fields of responses).

#include <doctest/doctest.h>

#include "unit/core/blob/blob_test_http.hpp"
#include "unit/core/blob/blob_test_server.hpp"

namespace loupe {

namespace {

constexpr int64_t ttl_ms = 10 * 60 * 1000;

std::vector<uint8_t> as_bytes(const std::string& text) {
    return {text.begin(), text.end()};
}

}  // namespace

TEST_CASE("GET /blobs: a signed URL serves the bytes with the signed type") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(90 * 1024, 31);
    const std::string key = server.store.put(as_bytes(bytes));

    const blob_test::HttpAnswer image = blob_test::http_get(
        server.port, server.target(server.store.signed_get_url(key, "image/png", ttl_ms)));
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
    for (const char* type : {"text/html", "image/svg+xml", "application/json"}) {
        const blob_test::HttpAnswer other = blob_test::http_get(
            server.port, server.target(server.store.signed_get_url(key, type, ttl_ms)));
        CHECK(other.status == 200);
        CHECK(other.header("Content-Type") == type);
        CHECK(other.header("Content-Disposition") == "attachment");
    }
    // A list of types starting with an image is no image: a browser may take the HTML of it.
    for (const char* type :
         {"image/png, text/html", "image/png,text/html", "image/pngx", "image/x-icon"}) {
        CAPTURE(type);
        const blob_test::HttpAnswer listed = blob_test::http_get(
            server.port, server.target(server.store.signed_get_url(key, type, ttl_ms)));
        CHECK(listed.status == 200);
        CHECK(listed.header("Content-Disposition") == "attachment");
        CHECK(listed.header("Content-Type").value_or("").find("text/html") == std::string::npos);
    }
    const blob_test::HttpAnswer parameters = blob_test::http_get(
        server.port,
        server.target(server.store.signed_get_url(key, "image/png; charset=x", ttl_ms)));
    CHECK_FALSE(parameters.header("Content-Disposition"));
    CHECK(parameters.header("Content-Type") == "image/png");

    const std::string target = server.target(server.store.signed_get_url(key, "image/png", 5000));
    const blob_test::HttpAnswer head =
        blob_test::http_send(server.port, {"HEAD", "/v2" + target, {}, {}, false});
    CHECK(head.status == 200);
    CHECK(head.header("Content-Length") == std::to_string(bytes.size()));
    CHECK(head.header("Cache-Control").value_or("").starts_with("private, max-age="));
    CHECK(head.body.empty());
}

TEST_CASE("GET /blobs: a bad or expired signature is a 403, a missing blob a 404") {
    blob_test::BlobTestServer server;
    const std::string key = server.store.put(as_bytes("held"));
    const Json refused = {{"error", "Invalid or expired download signature"}};
    const int64_t later = now_ms() / 1000 + 60;
    const auto target = [&](const std::string& method, const std::string& blob, int64_t expires,
                            const std::string& signed_type, const std::string& sent_type) {
        return "/blobs/" + blob + "?expires=" + std::to_string(expires) +
               "&contentType=" + sent_type +
               "&signature=" + server.store.signer().sign(method, blob, signed_type, expires);
    };

    CHECK(blob_test::http_get(server.port, target("GET", key, later, "image/png", "image/png"))
              .status == 200);
    for (const std::string& refused_target :
         {target("GET", key, now_ms() / 1000 - 1, "image/png", "image/png"),
          target("PUT", key, later, "image/png", "image/png"),
          target("GET", key, later, "image/png", "text/html"), "/blobs/" + key}) {
        CAPTURE(refused_target);
        const blob_test::HttpAnswer result = blob_test::http_get(server.port, refused_target);
        CHECK(result.status == 403);
        CHECK(result.json() == refused);
    }

    const std::string absent = blob_test::sha256_hex("never uploaded");
    const blob_test::HttpAnswer missing =
        blob_test::http_get(server.port, target("GET", absent, later, "image/png", "image/png"));
    CHECK(missing.status == 404);
    CHECK(missing.json() == Json{{"error", "Not found"}});
    CHECK(blob_test::http_get(server.port, "/blobs/not-a-key?expires=1&contentType=a&signature=b")
              .status == 404);
}

}  // namespace loupe
