// Secrets sealed at rest: what is sealed opens with the same key and context only, an altered
// value never opens, and the key file is created private and read back.
#include "loupe/crypto/sealed_box.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "loupe/crypto/random.hpp"

using namespace loupe::crypto;

TEST_CASE("sealed box: opens with its key and context, nothing else") {
    const auto key = random_bytes(32);
    const std::string secret = "https://discord.com/api/webhooks/123/abc";
    const auto sealed = seal(key, secret, "chat-target:7");
    CHECK(sealed.starts_with("v1."));
    CHECK(sealed.find("discord") == std::string::npos);
    CHECK(seal(key, secret, "chat-target:7") != sealed);  // a fresh nonce each time
    CHECK(open_sealed(key, sealed, "chat-target:7") == secret);
    CHECK(!open_sealed(key, sealed, "chat-target:8"));
    CHECK(!open_sealed(random_bytes(32), sealed, "chat-target:7"));
    auto altered = sealed;
    altered[altered.size() / 2] = altered[altered.size() / 2] == 'A' ? 'B' : 'A';
    CHECK(!open_sealed(key, altered, "chat-target:7"));
    CHECK(!open_sealed(key, "v1.", "chat-target:7"));
    CHECK(!open_sealed(key, "plain text", "chat-target:7"));
    CHECK(open_sealed(key, seal(key, ""), "") == "");
    CHECK_THROWS_AS(seal("short", secret), std::invalid_argument);
}

TEST_CASE("sealed box: the key file is created private, then read back") {
    const auto dir = std::filesystem::temp_directory_path() / ("loupe-key-" + random_hex(6));
    const auto path = (dir / "keys" / "chat.key").string();
    const auto key = load_or_create_key_file(path);
    CHECK(key.size() == 32);
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    CHECK(load_or_create_key_file(path) == key);
    std::ofstream(path) << "not hex\n";
    CHECK_THROWS_AS(load_or_create_key_file(path), std::runtime_error);
    std::filesystem::remove_all(dir);
}
