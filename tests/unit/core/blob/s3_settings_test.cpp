// blobs.s3.* read from the configuration: defaults, addressing, credentials from the standard
// AWS environment, and a clear error naming each wrong key.

#include "blob/s3/s3_settings.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

#include "config/config.hpp"

namespace loupe {
namespace {

S3Settings settings_of(std::map<std::string, std::string> overrides) {
    overrides.emplace("blobs.s3.bucket", "screens");
    return S3Settings::from_config(*Config::load("", overrides));
}

std::map<std::string, std::string> with_keys(std::map<std::string, std::string> overrides) {
    overrides.emplace("blobs.s3.access_key_id", "AKID");
    overrides.emplace("blobs.s3.secret_access_key", "SECRET");
    return overrides;
}

}  // namespace

TEST_CASE("S3 settings: AWS by default, virtual-host names there and paths elsewhere") {
    auto aws = settings_of(with_keys({{"blobs.s3.region", "eu-west-3"}}));
    CHECK(aws.origin() == "https://screens.s3.eu-west-3.amazonaws.com");
    CHECK(aws.object_path("blobs/k") == "/blobs/k");
    CHECK(aws.scope.region == "eu-west-3");
    CHECK(aws.downloads == S3Downloads::presigned);
    CHECK(aws.multipart_threshold == (64u << 20));

    auto minio = settings_of(with_keys(
        {{"blobs.s3.endpoint", "http://minio.internal:9000"}, {"blobs.s3.prefix", "/loupe"}}));
    CHECK(minio.origin() == "http://minio.internal:9000");
    CHECK(minio.object_path("loupe/blobs/k") == "/screens/loupe/blobs/k");
    CHECK(minio.object_path("") == "/screens");
    CHECK(minio.prefix == "loupe/");
    CHECK(minio.host_header() == "minio.internal:9000");

    auto forced = settings_of(with_keys({{"blobs.s3.endpoint", "https://r2.example.com"},
                                         {"blobs.s3.addressing", "virtual"},
                                         {"blobs.s3.downloads", "proxy"}}));
    CHECK(forced.host_header() == "screens.r2.example.com");
    CHECK(forced.downloads == S3Downloads::proxy);
}

TEST_CASE("S3 settings: credentials from the configuration, else the AWS environment") {
    ::setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "ENVSECRET", 1);
    ::setenv("AWS_SESSION_TOKEN", "ENVTOKEN", 1);
    auto from_env = settings_of({});
    CHECK(from_env.credentials.access_key == "ENVKEY");
    CHECK(from_env.credentials.secret_key == "ENVSECRET");
    CHECK(from_env.credentials.session_token == "ENVTOKEN");
    auto configured = settings_of(with_keys({}));
    CHECK(configured.credentials.access_key == "AKID");
    CHECK(configured.credentials.session_token.empty());
    ::unsetenv("AWS_ACCESS_KEY_ID");
    ::unsetenv("AWS_SECRET_ACCESS_KEY");
    ::unsetenv("AWS_SESSION_TOKEN");
    CHECK_THROWS_WITH(settings_of({}), doctest::Contains("credentials are required"));
}

TEST_CASE("S3 settings: each wrong key is named") {
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.bucket", "Bad_Bucket"}})),
                      doctest::Contains("blobs.s3.bucket"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.endpoint", "ftp://x"}})),
                      doctest::Contains("blobs.s3.endpoint"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.endpoint", "http://x/path"}})),
                      doctest::Contains("blobs.s3.endpoint"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.addressing", "dns"}})),
                      doctest::Contains("blobs.s3.addressing"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.downloads", "never"}})),
                      doctest::Contains("blobs.s3.downloads"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.part_size_bytes", "1024"}})),
                      doctest::Contains("blobs.s3.part_size_bytes"));
    CHECK_THROWS_WITH(settings_of(with_keys({{"blobs.s3.max_attempts", "0"}})),
                      doctest::Contains("blobs.s3.max_attempts"));
}

}  // namespace loupe
