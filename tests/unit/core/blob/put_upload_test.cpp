// PUT /uploads/{key}: the legacy upload form (`putUrl`) over real HTTP.

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "unit/core/blob/blob_test_http.hpp"
#include "unit/core/blob/blob_test_server.hpp"

namespace loupe {
namespace {

constexpr int64_t put_ttl_ms = 30 * 60 * 1000;

blob_test::HttpAnswer put(blob_test::BlobTestServer& server, const std::string& target,
                          const std::string& body, const std::string& content_type = "image/png",
                          bool chunked = false) {
    std::vector<std::pair<std::string, std::string>> headers;
    if (!content_type.empty()) {
        headers.emplace_back("Content-Type", content_type);
    }
    return blob_test::http_send(server.port, {"PUT", target, body, headers, chunked});
}

std::string put_target(blob_test::BlobTestServer& server, const std::string& key,
                       const std::string& content_type = "image/png") {
    return server.target(server.store.signed_put_url(key, content_type, put_ttl_ms));
}

/// The upload target with the given query, signed by hand (for expired or tampered URLs).
std::string signed_target(blob_test::BlobTestServer& server, const std::string& method,
                          const std::string& key, const std::string& content_type,
                          int64_t expires) {
    return "/uploads/" + key + "?expires=" + std::to_string(expires) +
           "&contentType=" + content_type +
           "&signature=" + server.store.signer().sign(method, key, content_type, expires);
}

void check_nothing_stored(blob_test::BlobTestServer& server, const std::string& key) {
    CHECK_FALSE(server.store.exists(key));
    CHECK(server.temporary_files().empty());
    CHECK(server.upload_count() == 0);
}

}  // namespace

TEST_CASE("PUT /uploads: a signed upload stores the bytes under their SHA-256") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(300 * 1024);
    const std::string key = blob_test::sha256_hex(bytes);

    const blob_test::HttpAnswer result = put(server, put_target(server, key), bytes);
    REQUIRE(result.status == 200);
    CHECK(result.json() == Json{{"key", key}, {"size", bytes.size()}});

    REQUIRE(server.store.exists(key));
    const std::optional<std::string> stored = server.store.read(key);
    REQUIRE(stored);
    CHECK(*stored == bytes);
    CHECK(blob_test::sha256_hex(*stored) == key);
    CHECK(server.temporary_files().empty());

    const auto lines = server.log.lines("blob.uploaded");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find("key=" + key) != std::string::npos);
    CHECK(lines[0].find("size=" + std::to_string(bytes.size())) != std::string::npos);
    CHECK(lines[0].find(" ms=") != std::string::npos);
}

TEST_CASE("PUT /uploads: the /v2 prefix, an upper-case key and a chunked body are accepted") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(70 * 1024, 2);
    const std::string key = blob_test::sha256_hex(bytes);
    std::string upper = key;
    for (char& c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const std::string target = put_target(server, key);
    const std::string shouting = "/v2/uploads/" + upper + target.substr(target.find('?'));

    const blob_test::HttpAnswer result = put(server, shouting, bytes, "image/png", true);
    REQUIRE(result.status == 200);
    CHECK(result.json()["key"] == key);
    CHECK(server.store.read(key) == bytes);
}

TEST_CASE("PUT /uploads: content that does not hash to the key is refused, nothing stored") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(100 * 1024, 3);
    const std::string key = blob_test::sha256_hex("something else");

    const blob_test::HttpAnswer result = put(server, put_target(server, key), bytes);
    CHECK(result.status == 400);
    CHECK(result.json() ==
          Json{{"error", "Uploaded content does not match its key (expected " + key + ", got " +
                             blob_test::sha256_hex(bytes) + ")"}});
    check_nothing_stored(server, key);
    CHECK_FALSE(server.store.exists(blob_test::sha256_hex(bytes)));
}

TEST_CASE("PUT /uploads: a bad, expired or mismatched signature is a 403") {
    blob_test::BlobTestServer server;
    const std::string bytes = "png bytes";
    const std::string key = blob_test::sha256_hex(bytes);
    const int64_t later = now_ms() / 1000 + 600;
    const std::string good = signed_target(server, "PUT", key, "image/png", later);
    const Json refused = {{"error", "Invalid or expired upload signature"}};

    std::vector<std::string> targets = {
        signed_target(server, "PUT", key, "image/png", now_ms() / 1000 - 1),  // expired
        signed_target(server, "GET", key, "image/png", later),               // signed for downloads
        signed_target(server, "POST", key, "image/png", later),              // signed for the form
        good.substr(0, good.size() - 1) + (good.back() == '0' ? "1" : "0"),  // tampered
        "/uploads/" + key + "?expires=" + std::to_string(later) +
            "&contentType=image/jpeg&signature=" +
            server.store.signer().sign("PUT", key, "image/png", later),  // type swapped
        "/uploads/" + key + "?expires=" + std::to_string(later + 1) +
            "&contentType=image/png&signature=" +
            server.store.signer().sign("PUT", key, "image/png", later),  // expiry extended
        "/uploads/" + key + "?expires=" + std::to_string(later) + "&contentType=image/png",
        "/uploads/" + key,
        "/uploads/" + key + "?expires=soon&contentType=image/png&signature=00",
    };
    // Another key's valid signature.
    const std::string other = blob_test::sha256_hex("other");
    const std::string other_target = signed_target(server, "PUT", other, "image/png", later);
    targets.push_back("/uploads/" + key + other_target.substr(other_target.find('?')));

    for (const std::string& target : targets) {
        CAPTURE(target);
        const blob_test::HttpAnswer result = put(server, target, bytes);
        CHECK(result.status == 403);
        CHECK(result.json() == refused);
    }
    check_nothing_stored(server, key);
    CHECK(put(server, good, bytes).status == 200);
}

TEST_CASE("PUT /uploads: the Content-Type sent must be the signed one") {
    blob_test::BlobTestServer server;
    const std::string bytes = "some text";
    const std::string key = blob_test::sha256_hex(bytes);
    const std::string target = put_target(server, key, "text/plain");

    const blob_test::HttpAnswer wrong = put(server, target, bytes, "image/png");
    CHECK(wrong.status == 403);
    CHECK(wrong.json() ==
          Json{{"error", "Content-Type does not match the signed upload (expected text/plain)"}});
    check_nothing_stored(server, key);

    CHECK(put(server, target, bytes, "Text/Plain; charset=utf-8").status == 200);
    CHECK(put(server, target, bytes, "").status == 200);  // none sent: the signed one applies
    CHECK(server.upload_count() == 2);
}

TEST_CASE("PUT /uploads: a URL signed without a type accepts any Content-Type") {
    blob_test::BlobTestServer server;
    const std::string bytes = "legacy screenshot";
    const std::string key = blob_test::sha256_hex(bytes);
    const std::string target = put_target(server, key, "");
    CHECK(target.find("contentType=&") != std::string::npos);

    CHECK(put(server, target, bytes, "image/png").status == 200);
    CHECK(put(server, target, bytes, "application/json").status == 200);
    CHECK(put(server, target, bytes, "").status == 200);
    CHECK(server.upload_count() == 3);
    // The empty type is still part of the signature.
    CHECK(put(server,
              target.substr(0, target.find("contentType=")) + "contentType=image/png" +
                  target.substr(target.find('&', target.find("contentType="))),
              bytes)
              .status == 403);
}

TEST_CASE("PUT /uploads: a malformed key is a 400") {
    blob_test::BlobTestServer server;
    for (const std::string& key : {std::string(63, 'a'), std::string(65, 'a'),
                                   std::string(63, 'a') + "g", std::string("..%2F..%2Fsecret")}) {
        CAPTURE(key);
        const blob_test::HttpAnswer result = put(server, "/uploads/" + key, "x");
        CHECK(result.status == 400);
        CHECK(result.json() == Json{{"error", "Invalid upload key"}});
    }
}

TEST_CASE("PUT /uploads: a body over the limit is a 413 and nothing is stored") {
    blob_test::BlobTestServer server(UploadLimits{1000});
    const std::string at_limit = blob_test::random_bytes(1000, 4);
    CHECK(put(server, put_target(server, blob_test::sha256_hex(at_limit)), at_limit).status == 200);

    const std::string over = blob_test::random_bytes(1001, 5);
    const std::string key = blob_test::sha256_hex(over);
    const Json too_large = {{"error", "Upload exceeds the maximum size of 1000 bytes"}};

    const blob_test::HttpAnswer declared = put(server, put_target(server, key), over);
    CHECK(declared.status == 413);
    CHECK(declared.json() == too_large);

    // A chunked body has no length to check first: it is cut off while streaming.
    const std::string big = blob_test::random_bytes(600 * 1024, 6);
    const std::string big_key = blob_test::sha256_hex(big);
    const blob_test::HttpAnswer chunked = put(server, put_target(server, big_key), big, "", true);
    CHECK(chunked.status == 413);
    CHECK(chunked.json() == too_large);

    CHECK_FALSE(server.store.exists(key));
    CHECK_FALSE(server.store.exists(big_key));
    CHECK(server.temporary_files().empty());
    CHECK(server.upload_count() == 1);
}

TEST_CASE("PUT /uploads: an empty body is a 400") {
    blob_test::BlobTestServer server;
    const std::string key = blob_test::sha256_hex("");
    for (const bool chunked : {false, true}) {
        const blob_test::HttpAnswer result = put(server, put_target(server, key), "", "", chunked);
        CHECK(result.status == 400);
        CHECK(result.json() == Json{{"error", "Upload is empty"}});
    }
    check_nothing_stored(server, key);
}

TEST_CASE("PUT /uploads: a re-upload of a held key is verified and accepted") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(50 * 1024, 7);
    const std::string key = blob_test::sha256_hex(bytes);
    const std::string target = put_target(server, key);
    REQUIRE(put(server, target, bytes).status == 200);
    struct stat written {};
    REQUIRE(::stat(server.store.local_path(key)->c_str(), &written) == 0);

    const blob_test::HttpAnswer again = put(server, target, bytes);
    CHECK(again.status == 200);
    CHECK(again.json() == Json{{"key", key}, {"size", bytes.size()}});
    CHECK(server.upload_count() == 2);

    // The bytes are still checked: a held key does not make any body acceptable.
    CHECK(put(server, target, blob_test::random_bytes(50 * 1024, 8)).status == 400);
    CHECK(server.store.read(key) == bytes);
    struct stat now {};
    REQUIRE(::stat(server.store.local_path(key)->c_str(), &now) == 0);
    CHECK(now.st_ino == written.st_ino);  // never rewritten
    CHECK(server.temporary_files().empty());
}

TEST_CASE("PUT /uploads: concurrent uploads of the same content all succeed") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(1024 * 1024, 9);
    const std::string key = blob_test::sha256_hex(bytes);
    const std::string target = put_target(server, key);
    std::vector<int> statuses(4, 0);
    std::vector<std::thread> clients;
    for (std::size_t i = 0; i < statuses.size(); ++i) {
        clients.emplace_back([&, i] { statuses[i] = put(server, target, bytes).status; });
    }
    for (std::thread& client : clients) {
        client.join();
    }
    CHECK(statuses == std::vector<int>(4, 200));
    CHECK(server.store.read(key) == bytes);
    CHECK(server.temporary_files().empty());
}

TEST_CASE("PUT /uploads: a client that goes away mid-body leaves nothing behind") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(200 * 1024, 10);
    const std::string key = blob_test::sha256_hex(bytes);
    {
        Poco::Net::StreamSocket socket(
            Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(server.port)));
        const std::string head = "PUT " + put_target(server, key) +
                                 " HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n"
                                 "Content-Length: " +
                                 std::to_string(bytes.size()) + "\r\n\r\n";
        socket.sendBytes(head.data(), static_cast<int>(head.size()));
        socket.sendBytes(bytes.data(), 100 * 1024);
        // Let the handler start streaming before the client disappears.
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        socket.close();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (server.log.lines("http.request").empty() &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const auto requests = server.log.lines("http.request");
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].find(" status=400") != std::string::npos);  // "Upload ended after ..."
    check_nothing_stored(server, key);
}

TEST_CASE("PUT /uploads: a 20 MB upload is streamed to disk and stored intact") {
    blob_test::BlobTestServer server;
    const std::string bytes = blob_test::random_bytes(20 * 1024 * 1024, 11);
    const std::string key = blob_test::sha256_hex(bytes);

    const blob_test::HttpAnswer result = put(server, put_target(server, key), bytes);
    REQUIRE(result.status == 200);
    CHECK(result.json()["size"] == bytes.size());
    const std::optional<BlobInfo> info = server.store.stat(key);
    REQUIRE(info);
    CHECK(info->size == bytes.size());
    CHECK(blob_test::sha256_hex(*server.store.read(key)) == key);
}

}  // namespace loupe
