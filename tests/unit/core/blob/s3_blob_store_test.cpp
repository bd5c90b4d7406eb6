// The S3 blob store against a real S3-protocol server (s3rver, which verifies Signature V4):
// the blob-store contract, presigned uploads that land in the bucket and are verified before
// they count, a tampered upload refused, presigned downloads, and startup errors.
// These cases form the doctest suite "s3" (ctest label s3, not run with the db label).

#include "blob/s3/s3_blob_store.hpp"

#include <Poco/Base64Decoder.h>
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "blob/local_blob_store.hpp"
#include "log/stderr_logger.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/json.hpp"
#include "support/http_client.hpp"
#include "support/s3_server.hpp"
#include "support/server_process.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_store_contract.hpp"

namespace loupe {
namespace {

struct S3Fixture {
    test::S3Server* server = nullptr;
    S3Settings settings;
    StderrLogger log{"test", LogLevel::error};
    std::unique_ptr<S3BlobStore> store;

    explicit S3Fixture(S3Downloads downloads = S3Downloads::presigned) {
        std::string why;
        server = test::S3Server::shared(why);
        REQUIRE_MESSAGE(server != nullptr, why);
        settings = server->fresh_bucket();
        settings.downloads = downloads;
        store = std::make_unique<S3BlobStore>(
            settings, UrlSigner(std::string(64, 's')),
            [] { return std::string("https://loupe.example.com"); }, 1u << 20, log);
    }

    int object_status(const std::string& name) { return store->client().send("HEAD", name).status; }
};

test::HttpResult put_to(const std::string& url, const std::string& bytes,
                        const std::string& content_type = "image/png") {
    return test::http({"PUT", url, bytes, content_type, std::nullopt, {}});
}

}  // namespace

TEST_SUITE("s3" * doctest::skip()) {
    TEST_CASE("blob store contract: S3BlobStore (single PUT and multipart)") {
        S3Fixture fixture;
        fixture.store->check_access();
        blob_test::check_blob_store_contract(*fixture.store, 7u << 20);
    }

    TEST_CASE("S3: a presigned PUT lands in incoming/ and counts once its hash is verified") {
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(4000, 21);
        const std::string key = blob_test::sha256_hex(bytes);
        CHECK_FALSE(fixture.store->exists(key));

        const auto url = fixture.store->signed_put_url(key, "", 60000);
        CHECK(url.starts_with(fixture.server->endpoint() + "/" + fixture.settings.bucket +
                              "/incoming/" + key + "?"));
        CHECK(url.find("X-Amz-Signature=") != std::string::npos);
        CHECK(url.find("x-amz-checksum-sha256=") != std::string::npos);
        REQUIRE(put_to(url, bytes).status == 200);
        CHECK(fixture.object_status(fixture.store->incoming_name(key)) == 200);
        CHECK(fixture.object_status(fixture.store->blob_name(key)) == 404);

        CHECK(fixture.store->exists(key));  // verified and moved
        CHECK(fixture.object_status(fixture.store->blob_name(key)) == 200);
        CHECK(fixture.object_status(fixture.store->incoming_name(key)) == 404);
        CHECK(fixture.store->read(key) == bytes);
    }

    TEST_CASE("S3: a tampered upload is refused and removed; the honest one then succeeds") {
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(4000, 22);
        const std::string key = blob_test::sha256_hex(bytes);
        const auto url = fixture.store->signed_put_url(key, "", 60000);
        std::string tampered = bytes;
        tampered[100] ^= 1;
        REQUIRE(put_to(url, tampered).status == 200);  // the server stores what it is sent

        CHECK_FALSE(fixture.store->exists(key));
        CHECK(fixture.object_status(fixture.store->incoming_name(key)) == 404);
        CHECK(fixture.object_status(fixture.store->blob_name(key)) == 404);
        CHECK_FALSE(fixture.store->read(key));

        REQUIRE(put_to(url, bytes).status == 200);
        CHECK(fixture.store->exists(key));
        CHECK(fixture.store->read(key) == bytes);
    }

    TEST_CASE("S3: an upload of a blob stored before moves its time, as a rewrite would") {
        // A second project proves it holds a blob by uploading it while its claim stands: the
        // blob's time must then be that upload's, not the first copy's.
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(3000, 23);
        const std::string key = blob_test::sha256_hex(bytes);
        fixture.store->put(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
        const auto first = fixture.store->stat(key);
        REQUIRE(first);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // Last-Modified: seconds
        REQUIRE(put_to(fixture.store->signed_put_url(key, "", 60000), bytes).status == 200);
        CHECK(fixture.store->exists(key));  // from blobs/ alone: the upload still waits
        const auto again = fixture.store->stat(key);
        REQUIRE(again);
        CHECK(again->written_at_ms >= first->written_at_ms + 1000);
        CHECK(again->size == bytes.size());
        CHECK(fixture.object_status(fixture.store->incoming_name(key)) == 404);
        CHECK(fixture.store->read(key) == bytes);

        // A tampered upload moves nothing: the time stays the honest upload's.
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        std::string tampered = bytes;
        tampered[7] ^= 1;
        REQUIRE(put_to(fixture.store->signed_put_url(key, "", 60000), tampered).status == 200);
        const auto after_tamper = fixture.store->stat(key);
        REQUIRE(after_tamper);
        CHECK(after_tamper->written_at_ms <= again->written_at_ms + 1000);
        CHECK(fixture.store->read(key) == bytes);
    }

    TEST_CASE("S3: an upload over the size limit is refused") {
        S3Fixture fixture;  // max_upload_bytes = 1 MiB
        const std::string bytes = blob_test::random_bytes((1u << 20) + 1, 23);
        const std::string key = blob_test::sha256_hex(bytes);
        REQUIRE(put_to(fixture.store->signed_put_url(key, "", 60000), bytes).status == 200);
        CHECK_FALSE(fixture.store->exists(key));
        CHECK(fixture.object_status(fixture.store->incoming_name(key)) == 404);
    }

    TEST_CASE("S3: the bucket refuses a presigned URL that was altered or has expired") {
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(1000, 24);
        const std::string key = blob_test::sha256_hex(bytes);
        const auto url = fixture.store->signed_put_url(key, "", 60000);

        const std::string other = blob_test::sha256_hex("another object");
        std::string retargeted = url;
        retargeted.replace(retargeted.find(key), key.size(), other);
        CHECK(put_to(retargeted, bytes).status == 403);

        std::string forged = url;
        const auto signature = forged.find("X-Amz-Signature=") + 16;
        forged[signature] = forged[signature] == 'a' ? 'b' : 'a';
        CHECK(put_to(forged, bytes).status == 403);

        const auto expired = fixture.store->client().presign(
            "PUT", fixture.store->incoming_name(key), {}, 1, now_ms() / 1000 - 60);
        CHECK(put_to(expired, bytes).status == 403);

        CHECK_FALSE(fixture.store->exists(key));
    }

    TEST_CASE("S3: the secure form upload (POST policy) lands in incoming/ and is verified") {
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(2000, 25);
        const std::string key = blob_test::sha256_hex(bytes);
        const auto [url, fields] = fixture.store->signed_post_form(key, "image/png", 60000);
        CHECK(url == fixture.server->endpoint() + "/" + fixture.settings.bucket);
        std::map<std::string, std::string> by_name(fields.begin(), fields.end());
        CHECK(by_name.at("key") == fixture.store->incoming_name(key));
        CHECK(by_name.at("Content-Type") == "image/png");
        CHECK(by_name.at("x-amz-checksum-sha256") ==
              crypto::base64_encode(crypto::from_hex(key).value()));
        CHECK(by_name.at("X-Amz-Signature").size() == 64);
        std::istringstream encoded(by_name.at("Policy"));
        Poco::Base64Decoder decoder(encoded);
        const auto policy = nlohmann::json::parse(
            std::string(std::istreambuf_iterator<char>(decoder), std::istreambuf_iterator<char>()));
        CHECK(policy.at("conditions").dump().find(key) != std::string::npos);
        CHECK(policy.at("conditions").dump().find("content-length-range") != std::string::npos);

        blob_test::UploadForm form;
        form.fields = fields;
        form.file = bytes;
        form.file_content_type = "image/png";
        const auto posted =
            test::http({"POST", url, form.body(), form.content_type(), std::nullopt, {}});
        CHECK(posted.status == 204);
        CHECK(fixture.store->exists(key));
        CHECK(fixture.store->read(key) == bytes);
    }

    TEST_CASE("S3: downloads are presigned GETs with the content type, or proxied URLs") {
        S3Fixture fixture;
        const std::string bytes = blob_test::random_bytes(3000, 26);
        const std::string key = fixture.store->put(blob_test::bytes_of(bytes));
        const auto url = fixture.store->signed_get_url(key, "image/png", 60000);
        const auto got = test::http_get(url);
        CHECK(got.status == 200);
        CHECK(got.body == bytes);
        CHECK(got.header("content-type") == "image/png");

        const auto text = test::http_get(fixture.store->signed_get_url(key, "text/html", 60000));
        CHECK(text.header("content-disposition") == "attachment");

        std::string forged = url;
        forged.replace(forged.find("image%2Fpng"), 11, "text%2Fhtml");
        CHECK(test::http_get(forged).status == 403);

        S3Fixture proxied(S3Downloads::proxy);
        const auto proxied_url = proxied.store->signed_get_url(key, "image/png", 60000);
        CHECK(proxied_url.starts_with("https://loupe.example.com/blobs/" + key + "?expires="));
    }

    TEST_CASE("S3: a clear error when the bucket is missing, the keys wrong or nothing answers") {
        S3Fixture fixture;
        StderrLogger log{"test", LogLevel::error};
        const auto store_with = [&](S3Settings settings) {
            return std::make_unique<S3BlobStore>(
                settings, UrlSigner(std::string(64, 's')), [] { return std::string(); }, 1024, log);
        };
        auto missing = fixture.settings;
        missing.bucket = "no-such-bucket";
        CHECK_THROWS_WITH(store_with(missing)->check_access(), doctest::Contains("does not exist"));
        CHECK_FALSE(store_with(missing)->reachable());

        auto refused = fixture.settings;
        refused.credentials.secret_key = "wrong";
        CHECK_THROWS_WITH(store_with(refused)->check_access(),
                          doctest::Contains("refused the credentials"));

        auto unreachable = fixture.settings;
        unreachable.port = 1;
        CHECK_THROWS_WITH(store_with(unreachable)->check_access(),
                          doctest::Contains("unreachable"));
        CHECK(fixture.store->reachable());
    }
}

}  // namespace loupe

namespace loupe {

TEST_SUITE("s3" * doctest::skip()) {
    TEST_CASE("S3: `loupe admin blobs migrate --to s3` copies a local folder, resumably") {
        S3Fixture fixture;
        test::TempDir data;
        LocalBlobStore local(data.path() + "/blobs", UrlSigner(std::string(64, 'k')),
                             [] { return std::string(); });
        std::vector<std::string> keys;
        for (unsigned i = 0; i < 5; ++i) {
            keys.push_back(local.put(blob_test::bytes_of(blob_test::random_bytes(1000 + i, i))));
        }
        // A file whose bytes are not its name (disk corruption) is reported, not copied.
        const std::string corrupt_key = blob_test::sha256_hex("what it should hold");
        std::filesystem::create_directories(
            std::filesystem::path(local.path_for(corrupt_key)).parent_path());
        std::ofstream(local.path_for(corrupt_key)) << "something else";

        const auto& s = fixture.settings;
        const std::vector<std::string> command{
            "--set",   "data.dir=" + data.path(),
            "--set",   "db.url=sqlite:" + data.path() + "/loupe.db",
            "--set",   "blobs.s3.endpoint=http://127.0.0.1:" + std::to_string(s.port),
            "--set",   "blobs.s3.bucket=" + s.bucket,
            "--set",   "blobs.s3.access_key_id=S3RVER",
            "--set",   "blobs.s3.secret_access_key=S3RVER",
            "admin",   "blobs",
            "migrate", "--to",
            "s3",      "--json"};
        std::string out;
        CHECK(test::run_loupe(command, out) == 1);  // the corrupt file
        auto report = nlohmann::json::parse(out.substr(out.find('{')));
        CHECK(report["copied"] == 5);
        CHECK(report["skipped"] == 0);
        REQUIRE(report["corrupt"].size() == 1);
        CHECK(report["corrupt"][0].get<std::string>().ends_with(corrupt_key));
        for (const auto& key : keys) {
            CHECK(fixture.store->read(key) == local.read(key));
        }
        CHECK_FALSE(fixture.store->exists(corrupt_key));

        // Interrupted or not, a second run copies only what is missing.
        std::filesystem::remove(local.path_for(corrupt_key));
        REQUIRE(fixture.store->remove(keys[2]));
        CHECK(test::run_loupe(command, out) == 0);
        report = nlohmann::json::parse(out.substr(out.find('{')));
        CHECK(report["copied"] == 1);
        CHECK(report["skipped"] == 4);
        CHECK(fixture.store->read(keys[2]) == local.read(keys[2]));
    }
}

}  // namespace loupe
