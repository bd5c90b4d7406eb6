// AWS Signature Version 4 against AWS's published vectors:
//  - the "Signature Version 4 test suite" (AWS General Reference, service "service",
//    credentials AKIDEXAMPLE, 2015-08-30T12:36:00Z): get-vanilla, post-vanilla,
//    get-vanilla-query-order-key-case, post-header-value-case;
//  - the Amazon S3 API Reference examples "Signature Calculations for the Authorization Header"
//    (GET Object with a Range) and "Authenticating Requests: Using Query Parameters"
//    (presigned GET), credentials AKIAIOSFODNN7EXAMPLE, 2013-05-24T00:00:00Z.

#include "blob/s3/sigv4.hpp"

#include <doctest/doctest.h>

#include "loupe/crypto/encoding.hpp"

namespace loupe {
namespace {

const sigv4::Credentials suite_credentials{"AKIDEXAMPLE",
                                           "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
const sigv4::Scope suite_scope{"us-east-1", "service"};
const std::string suite_date = "20150830T123600Z";
const std::string empty_sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const sigv4::Credentials s3_credentials{"AKIAIOSFODNN7EXAMPLE",
                                        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
const sigv4::Scope s3_scope{"us-east-1", "s3"};

sigv4::Request suite_request(const std::string& method) {
    return {method,
            "/",
            {},
            {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", suite_date}},
            empty_sha256};
}

std::string suite_authorization(const std::string& signed_headers, const std::string& signature) {
    return "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
           "SignedHeaders=" +
           signed_headers + ", Signature=" + signature;
}

}  // namespace

TEST_CASE("sigv4: get-vanilla (AWS test suite)") {
    const auto request = suite_request("GET");
    CHECK(sigv4::canonical_request(request) ==
          "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
              empty_sha256);
    CHECK(sigv4::string_to_sign(suite_date, suite_scope, sigv4::canonical_request(request)) ==
          "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
          "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
    CHECK(sigv4::authorization(request, suite_credentials, suite_scope, suite_date) ==
          suite_authorization("host;x-amz-date",
                              "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"));
}

TEST_CASE("sigv4: post-vanilla (AWS test suite)") {
    CHECK(sigv4::authorization(suite_request("POST"), suite_credentials, suite_scope, suite_date) ==
          suite_authorization("host;x-amz-date",
                              "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"));
}

TEST_CASE("sigv4: get-vanilla-query-order-key-case (AWS test suite): parameters sorted") {
    auto request = suite_request("GET");
    request.query = {{"Param2", "value2"}, {"Param1", "value1"}};
    CHECK(sigv4::canonical_request(request).find("\nParam1=value1&Param2=value2\n") !=
          std::string::npos);
    CHECK(sigv4::authorization(request, suite_credentials, suite_scope, suite_date) ==
          suite_authorization("host;x-amz-date",
                              "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"));
}

TEST_CASE("sigv4: post-header-value-case (AWS test suite): names lower-cased, values kept") {
    auto request = suite_request("POST");
    request.headers.emplace_back("My-Header1", "VALUE1");
    CHECK(sigv4::authorization(request, suite_credentials, suite_scope, suite_date) ==
          suite_authorization("host;my-header1;x-amz-date",
                              "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"));
}

TEST_CASE("sigv4: S3 GET Object with a Range (Amazon S3 API Reference example)") {
    const std::string date = "20130524T000000Z";
    const sigv4::Request request{"GET",
                                 "/test.txt",
                                 {},
                                 {{"Host", "examplebucket.s3.amazonaws.com"},
                                  {"Range", "bytes=0-9"},
                                  {"x-amz-content-sha256", empty_sha256},
                                  {"x-amz-date", date}},
                                 empty_sha256};
    CHECK(sigv4::string_to_sign(date, s3_scope, sigv4::canonical_request(request)) ==
          "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
          "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    CHECK(sigv4::authorization(request, s3_credentials, s3_scope, date) ==
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
          "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
          "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST_CASE("sigv4: S3 presigned GET (Amazon S3 API Reference example)") {
    const sigv4::Request request{
        "GET", "/test.txt", {}, {{"Host", "examplebucket.s3.amazonaws.com"}}, ""};
    CHECK(sigv4::presigned_query(request, s3_credentials, s3_scope, "20130524T000000Z", 86400) ==
          "X-Amz-Algorithm=AWS4-HMAC-SHA256"
          "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
          "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
          "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

TEST_CASE("sigv4: URI encoding keeps unreserved characters, '/' only in paths") {
    CHECK(sigv4::uri_encode("AZaz09-_.~", true) == "AZaz09-_.~");
    CHECK(sigv4::uri_encode("a b/c+d=", false) == "a%20b/c%2Bd%3D");
    CHECK(sigv4::uri_encode("a/b", true) == "a%2Fb");
    CHECK(sigv4::uri_encode("\xc3\xa9", true) == "%C3%A9");
    CHECK(sigv4::amz_date(1369353600) == "20130524T000000Z");
    CHECK(crypto::base64_encode(std::string("\x00\xff\x10", 3)) == "AP8Q");
}

}  // namespace loupe
