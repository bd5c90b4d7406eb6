// UrlSigner: HMAC-SHA256 over (method, key, content type, expiry), and its secret file.

#include "blob/url_signer.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "support/test_database.hpp"

namespace loupe {

TEST_CASE("UrlSigner: a signature binds method, key, content type and expiry") {
    const UrlSigner signer(std::string(64, 'a'));
    const std::string key(64, 'b');
    const std::string signature = signer.sign("PUT", key, "image/png", 1000);
    CHECK(signature.size() == 64);
    CHECK(signer.verify("PUT", key, "image/png", 1000, signature, 1000));
    CHECK(signer.verify("PUT", key, "image/png", 1000, signature, 999));

    CHECK_FALSE(signer.verify("PUT", key, "image/png", 1000, signature, 1001));  // expired
    CHECK_FALSE(signer.verify("GET", key, "image/png", 1000, signature, 0));
    CHECK_FALSE(signer.verify("PUT", std::string(64, 'c'), "image/png", 1000, signature, 0));
    CHECK_FALSE(signer.verify("PUT", key, "image/jpeg", 1000, signature, 0));
    CHECK_FALSE(signer.verify("PUT", key, "image/png", 1001, signature, 0));
    CHECK_FALSE(signer.verify("PUT", key, "image/png", 1000, signature.substr(1), 0));
    CHECK_FALSE(signer.verify("PUT", key, "image/png", 1000, "", 0));

    const UrlSigner other(std::string(64, 'z'));
    CHECK_FALSE(other.verify("PUT", key, "image/png", 1000, signature, 0));
    CHECK_THROWS_AS(UrlSigner("short"), std::invalid_argument);
}

TEST_CASE("UrlSigner: the secret is created once, private, and read back") {
    test::TempDir folder;
    const std::string data_dir = folder.path() + "/data";
    const std::string secret = UrlSigner::load_or_create_secret(data_dir);
    CHECK(secret.size() == 64);
    CHECK(secret.find_first_not_of("0123456789abcdef") == std::string::npos);

    struct stat status {};
    REQUIRE(::stat((data_dir + "/secret.key").c_str(), &status) == 0);
    CHECK((status.st_mode & 0777) == 0600);
    CHECK(UrlSigner::load_or_create_secret(data_dir) == secret);

    std::ofstream(data_dir + "/secret.key", std::ios::trunc) << "too short";
    CHECK_THROWS_AS(UrlSigner::load_or_create_secret(data_dir), std::runtime_error);
}

}  // namespace loupe
