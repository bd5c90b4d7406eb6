#pragma once
// The behaviour every BlobStore promises (loupe/blob/blob_store.hpp), checked the same way on
// each backend: the local folder and an S3 bucket.

#include <doctest/doctest.h>

#include <span>
#include <string>

#include "loupe/blob/blob_store.hpp"
#include "unit/core/blob/blob_test_content.hpp"

namespace loupe::blob_test {

inline std::span<const uint8_t> bytes_of(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

inline std::string upper_case(std::string key) {
    for (char& c : key) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return key;
}

/// `large_size` should exceed the store's single-request write size, if it has one.
inline void check_blob_store_contract(BlobStore& store, std::size_t large_size) {
    SUBCASE("put stores bytes under their SHA-256; exists, stat and read find them") {
        const std::string bytes = random_bytes(20000, 7);
        const std::string key = store.put(bytes_of(bytes));
        CHECK(key == sha256_hex(bytes));
        CHECK(store.exists(key));
        CHECK(store.exists(upper_case(key)));
        const auto info = store.stat(upper_case(key));
        REQUIRE(info);
        CHECK(info->key == key);
        CHECK(info->size == bytes.size());
        CHECK(store.read(key) == bytes);
        CHECK(store.put(bytes_of(bytes)) == key);  // idempotent
        CHECK(store.read(key) == bytes);
    }
    SUBCASE("read_prefix reads the first bytes, or all of a shorter blob") {
        const std::string bytes = random_bytes(5000, 8);
        const std::string key = store.put(bytes_of(bytes));
        CHECK(store.read_prefix(key, 24) == bytes.substr(0, 24));
        CHECK(store.read_prefix(key, 1) == bytes.substr(0, 1));
        CHECK(store.read_prefix(key, 5000) == bytes);
        CHECK(store.read_prefix(key, 100000) == bytes);
    }
    SUBCASE("an empty blob is a blob") {
        const std::string key = store.put(bytes_of(""));
        CHECK(key == sha256_hex(""));
        CHECK(store.exists(key));
        CHECK(store.stat(key)->size == 0);
        CHECK(store.read(key) == std::string());
        CHECK(store.read_prefix(key, 10) == std::string());
    }
    SUBCASE("absent and malformed keys are absent, never an error") {
        const std::string absent = sha256_hex("never stored " + std::to_string(large_size));
        for (const std::string& key :
             {absent, std::string("../../etc/passwd"), std::string(64, 'z'), std::string()}) {
            CHECK_FALSE(store.exists(key));
            CHECK_FALSE(store.stat(key));
            CHECK_FALSE(store.read(key));
            CHECK_FALSE(store.read_prefix(key, 10));
            CHECK_FALSE(store.remove(key));
        }
    }
    SUBCASE("remove deletes a blob once") {
        const std::string bytes = random_bytes(3000, 9);
        const std::string key = store.put(bytes_of(bytes));
        CHECK(store.remove(key));
        CHECK_FALSE(store.exists(key));
        CHECK_FALSE(store.read(key));
        CHECK_FALSE(store.remove(key));
        CHECK(store.put(bytes_of(bytes)) == key);  // and can be stored again
        CHECK(store.read(key) == bytes);
    }
    SUBCASE("a large blob survives the round trip byte for byte") {
        const std::string bytes = random_bytes(large_size, 10);
        const std::string key = store.put(bytes_of(bytes));
        CHECK(store.stat(key)->size == bytes.size());
        const auto read = store.read(key);
        REQUIRE(read);
        CHECK(read->size() == bytes.size());
        CHECK(*read == bytes);
        CHECK(store.read_prefix(key, 33) == bytes.substr(0, 33));
    }
    SUBCASE("signed URLs name the key and expire") {
        const std::string key = store.put(bytes_of(random_bytes(100, 11)));
        CHECK(store.signed_get_url(key, "image/png", 60000).find(key) != std::string::npos);
        CHECK(store.signed_put_url(key, "", 60000).find(key) != std::string::npos);
        const auto [url, fields] = store.signed_post_form(key, "image/png", 60000);
        CHECK_FALSE(url.empty());
        bool names_key = false;
        for (const auto& [name, value] : fields) {
            names_key = names_key || (name == "key" && value.find(key) != std::string::npos);
        }
        CHECK(names_key);
    }
}

}  // namespace loupe::blob_test
