// LocalBlobStore: the content-addressed folder, its publish step and the URLs it signs.

#include "blob/local_blob_store.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "blob/temporary_upload.hpp"
#include "loupe/json.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_test_content.hpp"

namespace loupe {
namespace {

namespace fs = std::filesystem;

struct StoreFixture {
    test::TempDir folder;
    const std::string root = folder.path() + "/blobs";
    LocalBlobStore store{root, UrlSigner(std::string(64, 'k')),
                         [] { return std::string("https://loupe.example.com"); }};

    std::vector<std::string> temporary_files() const { return blob_test::files_in(root + "/tmp"); }
};

std::span<const uint8_t> as_span(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

std::string query_value(const std::string& url, const std::string& name) {
    const auto start = url.find(name + "=");
    REQUIRE(start != std::string::npos);
    const auto value = start + name.size() + 1;
    return url.substr(value, url.find('&', value) - value);
}

}  // namespace

TEST_CASE("blob keys: 64 hex characters, stored lower-case") {
    const std::string key(64, 'A');
    CHECK(is_blob_key(key));
    CHECK(is_blob_key(std::string(64, '0')));
    CHECK_FALSE(is_blob_key(std::string(63, 'a')));
    CHECK_FALSE(is_blob_key(std::string(65, 'a')));
    CHECK_FALSE(is_blob_key(std::string(63, 'a') + "z"));
    CHECK_FALSE(is_blob_key(""));
    CHECK(normalize_blob_key(key) == std::string(64, 'a'));
    CHECK_THROWS_AS(normalize_blob_key("../etc/passwd"), std::invalid_argument);
}

TEST_CASE("LocalBlobStore: put stores bytes under their SHA-256 in a two-level folder") {
    StoreFixture fixture;
    const std::string bytes = blob_test::random_bytes(10000, 41);
    const std::string key = fixture.store.put(as_span(bytes));
    CHECK(key == blob_test::sha256_hex(bytes));

    CHECK(fixture.store.exists(key));
    const std::optional<BlobInfo> info = fixture.store.stat(key);
    REQUIRE(info);
    CHECK(info->key == key);
    CHECK(info->size == bytes.size());
    CHECK(fixture.store.read(key) == bytes);
    const std::string expected_path =
        fixture.root + "/" + key.substr(0, 2) + "/" + key.substr(2, 2) + "/" + key;
    CHECK(fixture.store.local_path(key) == expected_path);
    CHECK(fixture.store.path_for(key) == expected_path);

    // Keys are accepted in any case.
    std::string upper = key;
    for (char& c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    CHECK(fixture.store.exists(upper));
    CHECK(fixture.store.stat(upper)->key == key);
    CHECK(fixture.temporary_files().empty());
}

TEST_CASE("LocalBlobStore: absent and malformed keys are simply not there") {
    StoreFixture fixture;
    const std::string absent = blob_test::sha256_hex("absent");
    CHECK_FALSE(fixture.store.exists(absent));
    CHECK_FALSE(fixture.store.stat(absent));
    CHECK_FALSE(fixture.store.read(absent));
    CHECK_FALSE(fixture.store.local_path(absent));
    for (const std::string& bad :
         std::vector<std::string>{"", "../../secret.key", "tmp", std::string(64, 'x')}) {
        CHECK_FALSE(fixture.store.exists(bad));
        CHECK_FALSE(fixture.store.stat(bad));
        CHECK_FALSE(fixture.store.read(bad));
        CHECK_FALSE(fixture.store.local_path(bad));
    }
}

TEST_CASE("LocalBlobStore: remove deletes a blob once and refuses malformed keys") {
    StoreFixture fixture;
    const auto key = fixture.store.put(as_span("short-lived"));
    REQUIRE(fixture.store.exists(key));
    CHECK(fixture.store.remove(key));
    CHECK_FALSE(fixture.store.exists(key));
    CHECK_FALSE(fixture.store.read(key).has_value());
    CHECK_FALSE(fixture.store.remove(key));
    CHECK_FALSE(fixture.store.remove("../../etc/passwd"));
}

TEST_CASE("LocalBlobStore: put is idempotent and an empty blob is a blob") {
    StoreFixture fixture;
    const std::string bytes = "same bytes";
    const std::string key = fixture.store.put(as_span(bytes));
    const auto written = fs::last_write_time(fixture.store.path_for(key));
    struct stat first {};
    REQUIRE(::stat(fixture.store.path_for(key).c_str(), &first) == 0);
    CHECK(fixture.store.put(as_span(bytes)) == key);
    // The same file, not written again; only its time moves on (the blob sweep keeps blobs
    // written after its cutoff, and bytes stored again are about to be referenced).
    struct stat second {};
    REQUIRE(::stat(fixture.store.path_for(key).c_str(), &second) == 0);
    CHECK(second.st_ino == first.st_ino);
    CHECK(fs::last_write_time(fixture.store.path_for(key)) >= written);
    CHECK(fixture.store.read(key) == bytes);

    const std::string empty_key = fixture.store.put({});
    CHECK(empty_key == blob_test::sha256_hex(""));
    CHECK(fixture.store.read(empty_key) == std::string());
    CHECK(fixture.temporary_files().empty());
}

TEST_CASE("LocalBlobStore: an upload is invisible until published, and gone if abandoned") {
    StoreFixture fixture;
    const std::string bytes = blob_test::random_bytes(5000, 42);
    const std::string key = blob_test::sha256_hex(bytes);
    {
        TemporaryUpload upload(fixture.store);
        upload.write(bytes.data(), 1000);
        upload.write(bytes.data() + 1000, bytes.size() - 1000);
        CHECK(upload.size() == bytes.size());
        CHECK(fixture.temporary_files().size() == 1);
        CHECK_FALSE(fixture.store.exists(key));
        CHECK(upload.finish() == key);
        CHECK_FALSE(fixture.store.exists(key));
    }
    CHECK(fixture.temporary_files().empty());
    CHECK_FALSE(fixture.store.exists(key));

    TemporaryUpload upload(fixture.store);
    upload.write(bytes.data(), bytes.size());
    REQUIRE(upload.finish() == key);
    upload.publish(key);
    CHECK(fixture.store.read(key) == bytes);
    CHECK(fixture.temporary_files().empty());
}

TEST_CASE("LocalBlobStore: publishing a key already held keeps the blob, drops the copy") {
    StoreFixture fixture;
    const std::string bytes = "held";
    const std::string key = fixture.store.put(as_span(bytes));
    const std::string temporary = fixture.store.temporary_path();
    std::ofstream(temporary, std::ios::binary) << bytes;
    CHECK(fixture.temporary_files().size() == 1);

    fixture.store.publish(temporary, key);
    CHECK_FALSE(fs::exists(temporary));
    CHECK(fixture.store.read(key) == bytes);
    CHECK(fixture.temporary_files().empty());
}

TEST_CASE("LocalBlobStore: temporary paths are unique and inside the store") {
    StoreFixture fixture;
    const std::string a = fixture.store.temporary_path();
    const std::string b = fixture.store.temporary_path();
    CHECK(a != b);
    CHECK(fs::path(a).parent_path() == fs::path(fixture.root) / "tmp");
}

TEST_CASE("LocalBlobStore: temporaries of an earlier process with the same PID are no obstacle") {
    // PID 1 in a container is PID 1 again after a restart: names made of the PID and a
    // counter would meet the files the killed process left.
    StoreFixture fixture;
    const std::string pid = std::to_string(::getpid());
    for (int i = 0; i < 10000; ++i) {
        std::ofstream(fixture.root + "/tmp/" + pid + "-" + std::to_string(i) + ".part") << "x";
    }
    const std::string bytes = blob_test::random_bytes(1000, 7);
    CHECK(fixture.store.put(as_span(bytes)) == blob_test::sha256_hex(bytes));
    const std::string a = fixture.store.temporary_path();
    CHECK(fs::path(a).filename().string().find(pid + "-") != 0);
}

TEST_CASE("LocalBlobStore: leftovers older than an upload URL lives are swept, recent ones kept") {
    test::TempDir folder;
    const std::string root = folder.path() + "/blobs";
    fs::create_directories(root + "/tmp");
    const auto now = fs::file_time_type::clock::now();
    const auto write_aged = [&](const std::string& name, std::chrono::minutes age) {
        std::ofstream(root + "/tmp/" + name) << "half";
        fs::last_write_time(root + "/tmp/" + name, now - age);
    };
    write_aged("old.part", std::chrono::minutes(31));
    write_aged("recent.part", std::chrono::minutes(10));

    LocalBlobStore store(root, UrlSigner(std::string(64, 'k')), [] { return std::string(); });
    CHECK(blob_test::files_in(root + "/tmp") == std::vector<std::string>{"recent.part"});

    // While the server runs, the sweep comes back on its schedule.
    write_aged("later.part", std::chrono::minutes(45));
    store.remove_stale_temporaries();
    CHECK(blob_test::files_in(root + "/tmp") == std::vector<std::string>{"recent.part"});
}

TEST_CASE("LocalBlobStore: signed URLs point at Loupe's routes and carry valid signatures") {
    StoreFixture fixture;
    const std::string key = blob_test::sha256_hex("x");
    std::string upper = key;
    upper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[0])));
    const int64_t now_s = now_ms() / 1000;
    const UrlSigner& signer = fixture.store.signer();

    const std::string put = fixture.store.signed_put_url(upper, "image/svg+xml", 30 * 60 * 1000);
    CHECK(put.starts_with("https://loupe.example.com/uploads/" + key + "?expires="));
    CHECK(query_value(put, "contentType") == "image%2Fsvg%2Bxml");
    const int64_t expires = std::stoll(query_value(put, "expires"));
    CHECK(expires >= now_s + 30 * 60 - 1);
    CHECK(expires <= now_s + 30 * 60 + 1);
    CHECK(
        signer.verify("PUT", key, "image/svg+xml", expires, query_value(put, "signature"), now_s));

    const auto [post_url, fields] = fixture.store.signed_post_form(key, "image/png", 60000);
    CHECK(post_url == "https://loupe.example.com/uploads");
    REQUIRE(fields.size() == 4);
    CHECK(fields[0] == std::pair<std::string, std::string>{"key", key});
    CHECK(fields[1] == std::pair<std::string, std::string>{"Content-Type", "image/png"});
    CHECK(fields[2].first == "expires");
    CHECK(fields[3].first == "signature");
    CHECK(signer.verify("POST", key, "image/png", std::stoll(fields[2].second), fields[3].second,
                        now_s));

    const std::string get = fixture.store.signed_get_url(key, "image/png", 60000);
    CHECK(get.starts_with("https://loupe.example.com/blobs/" + key + "?expires="));
    CHECK(signer.verify("GET", key, "image/png", std::stoll(query_value(get, "expires")),
                        query_value(get, "signature"), now_s));

    CHECK_THROWS_AS(fixture.store.signed_put_url("nope", "image/png", 1000), std::invalid_argument);
}

}  // namespace loupe
