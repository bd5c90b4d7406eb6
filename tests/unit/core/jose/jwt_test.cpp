// JWT verification with keys made in the test (RSA and EC), the RFC 7515 examples as known
// answers, and every way a token must be refused.
#include "loupe/jose/jwt.hpp"

#include <doctest/doctest.h>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"

namespace loupe::jose {
namespace {

constexpr int64_t now = 1'700'000'000;

JwtExpectations expectations() {
    return {.issuer = "https://issuer.example",
            .audiences = {"https://loupe.example"},
            .now_s = [] { return now; }};
}

Json claims() {
    return {{"iss", "https://issuer.example"},
            {"aud", "https://loupe.example"},
            {"sub", "repo:acme/web:ref:refs/heads/main"},
            {"iat", now - 10},
            {"nbf", now - 10},
            {"exp", now + 300}};
}

struct Issuer {
    SigningKey rsa = SigningKey::generate(Algorithm::rs256);
    SigningKey ec = SigningKey::generate(Algorithm::es256);
    JsonWebKeySet keys =
        JsonWebKeySet::from_json({{"keys", {rsa.public_jwk("rsa-1"), ec.public_jwk("ec-1")}}});
};

std::string with_payload(const std::string& token, const Json& payload) {
    const auto first = token.find('.');
    const auto second = token.find('.', first + 1);
    return token.substr(0, first + 1) + crypto::base64url_encode(payload.dump()) +
           token.substr(second);
}

std::string unsigned_token(const Json& header, const Json& payload, const std::string& signature) {
    return crypto::base64url_encode(header.dump()) + "." +
           crypto::base64url_encode(payload.dump()) + "." + signature;
}

JwtFailure failure_of(const JwtVerification& result) {
    REQUIRE_FALSE(static_cast<bool>(result));
    return result.error().failure;
}

TEST_CASE("tokens signed RS256 and ES256 by keys made here verify, kid picking the key") {
    const Issuer issuer;
    for (const auto& [key, kid] :
         {std::pair{&issuer.rsa, "rsa-1"}, std::pair{&issuer.ec, "ec-1"}}) {
        CAPTURE(kid);
        const auto result = verify_jwt(sign_jwt(claims(), *key, kid), issuer.keys, expectations());
        REQUIRE(result);
        CHECK(result.claims()["sub"] == "repo:acme/web:ref:refs/heads/main");
        CHECK(result.header()["kid"] == kid);
    }
    // The audience may be an array; one expected value in it is enough.
    auto several = claims();
    several["aud"] = {"other", "https://loupe.example"};
    CHECK(verify_jwt(sign_jwt(several, issuer.ec, "ec-1"), issuer.keys, expectations()));
}

TEST_CASE("the RFC 7515 examples verify: RS256 (A.2) and ES256 (A.3)") {
    const std::string payload =
        "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0"
        "cnVlfQ";
    const JwtExpectations at_the_time{.issuer = "joe", .now_s = [] { return 1'300'819'000; }};
    const auto rsa =
        JsonWebKeySet::from_json({{"keys",
                                   {{{"kty", "RSA"},
                                     {"n",
                                      "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_"
                                      "wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1"
                                      "Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_"
                                      "YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpa"
                                      "SHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-"
                                      "UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4"
                                      "LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_"
                                      "h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"},
                                     {"e", "AQAB"}}}}});
    const std::string rs256 =
        "eyJhbGciOiJSUzI1NiJ9." + payload +
        ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2"
        "Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjt"
        "QBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6"
        "IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw";
    const auto checked = verify_jwt(rs256, rsa, at_the_time);
    REQUIRE(checked);
    CHECK(checked.claims()["http://example.com/is_root"] == true);

    const auto ec =
        JsonWebKeySet::from_json({{"keys",
                                   {{{"kty", "EC"},
                                     {"crv", "P-256"},
                                     {"x", "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"},
                                     {"y", "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}}}}});
    const std::string es256 =
        "eyJhbGciOiJFUzI1NiJ9." + payload +
        ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q";
    CHECK(verify_jwt(es256, ec, at_the_time));
    // The same tokens, a day later: expired.
    const JwtExpectations later{.issuer = "joe", .now_s = [] { return 1'300'819'380 + 86'400; }};
    CHECK(failure_of(verify_jwt(es256, ec, later)) == JwtFailure::expired);
    // The HS256 example (A.1) is refused whatever the keys.
    const std::string hs256 = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9." + payload +
                              ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    CHECK(failure_of(verify_jwt(hs256, rsa, at_the_time)) == JwtFailure::unsupported_algorithm);
}

TEST_CASE("a tampered payload or signature does not verify") {
    const Issuer issuer;
    const auto token = sign_jwt(claims(), issuer.rsa, "rsa-1");
    auto raised = claims();
    raised["sub"] = "repo:acme/admin:ref:refs/heads/main";
    const auto result = verify_jwt(with_payload(token, raised), issuer.keys, expectations());
    CHECK(failure_of(result) == JwtFailure::bad_signature);
    CHECK(result.error().message.starts_with("signature:"));

    auto flipped = token;
    flipped[flipped.size() - 5] = flipped[flipped.size() - 5] == 'A' ? 'B' : 'A';
    CHECK(failure_of(verify_jwt(flipped, issuer.keys, expectations())) ==
          JwtFailure::bad_signature);
    const auto ec_token = sign_jwt(claims(), issuer.ec, "ec-1");
    const auto short_signature = ec_token.substr(0, ec_token.rfind('.') + 1) + "AAAA";
    CHECK(failure_of(verify_jwt(short_signature, issuer.keys, expectations())) ==
          JwtFailure::bad_signature);
}

TEST_CASE("alg none, HS256 keyed with the public key, and an algorithm the key lacks") {
    const Issuer issuer;
    const auto none = unsigned_token({{"alg", "none"}, {"kid", "rsa-1"}}, claims(), "");
    CHECK(failure_of(verify_jwt(none, issuer.keys, expectations())) ==
          JwtFailure::unsupported_algorithm);

    // The classic confusion: an HMAC keyed with what the verifier holds as the public key.
    const Json public_jwk = issuer.rsa.public_jwk("rsa-1");
    const std::string input =
        crypto::base64url_encode(Json{{"alg", "HS256"}, {"kid", "rsa-1"}}.dump()) + "." +
        crypto::base64url_encode(claims().dump());
    for (const std::string& secret :
         {public_jwk.dump(),
          crypto::base64url_decode(public_jwk["n"].get<std::string>()).value()}) {
        const auto forged =
            input + "." + crypto::base64url_encode(crypto::hmac_sha256(secret, input));
        CHECK(failure_of(verify_jwt(forged, issuer.keys, expectations())) ==
              JwtFailure::unsupported_algorithm);
    }

    // An RS256 header on the EC key's kid.
    const auto mixed = sign_jwt(claims(), issuer.rsa, "ec-1");  // signed by RSA, names the EC key
    CHECK(failure_of(verify_jwt(mixed, issuer.keys, expectations())) ==
          JwtFailure::unsupported_algorithm);
    // And a caller that accepts ES256 only.
    auto es_only = expectations();
    es_only.algorithms = {Algorithm::es256};
    CHECK(failure_of(verify_jwt(sign_jwt(claims(), issuer.rsa, "rsa-1"), issuer.keys, es_only)) ==
          JwtFailure::unsupported_algorithm);
    const auto critical =
        unsigned_token({{"alg", "RS256"}, {"kid", "rsa-1"}, {"crit", {"exp"}}}, claims(), "AAAA");
    CHECK(failure_of(verify_jwt(critical, issuer.keys, expectations())) ==
          JwtFailure::unsupported_algorithm);
}

TEST_CASE("an unknown kid, or no kid among several keys, names no key") {
    const Issuer issuer;
    const auto stranger = SigningKey::generate(Algorithm::rs256);
    const auto result =
        verify_jwt(sign_jwt(claims(), stranger, "rsa-2"), issuer.keys, expectations());
    CHECK(failure_of(result) == JwtFailure::unknown_key);
    CHECK(result.error().message == "kid: no key \"rsa-2\" in the key set");
    // Without a kid, the single key of the algorithm is the one.
    CHECK(verify_jwt(sign_jwt(claims(), issuer.ec), issuer.keys, expectations()));
    const auto two_ec = JsonWebKeySet::from_json(
        {{"keys",
          {issuer.ec.public_jwk("a"), SigningKey::generate(Algorithm::es256).public_jwk("b")}}});
    CHECK(failure_of(verify_jwt(sign_jwt(claims(), issuer.ec), two_ec, expectations())) ==
          JwtFailure::unknown_key);
}

TEST_CASE("time claims: expired, not yet valid, issued in the future, within the leeway") {
    const Issuer issuer;
    const auto with = [&](const char* claim, int64_t value) {
        auto c = claims();
        c[claim] = value;
        return verify_jwt(sign_jwt(c, issuer.ec, "ec-1"), issuer.keys, expectations());
    };
    CHECK(failure_of(with("exp", now - 61)) == JwtFailure::expired);
    CHECK(with("exp", now - 59));  // the 60 s leeway
    CHECK(failure_of(with("nbf", now + 61)) == JwtFailure::not_yet_valid);
    CHECK(with("nbf", now + 59));
    CHECK(failure_of(with("iat", now + 3600)) == JwtFailure::issued_in_future);
    const auto expired = with("exp", now - 3600);
    CHECK(expired.error().message.starts_with("exp: the token expired at"));

    auto no_expiry = claims();
    no_expiry.erase("exp");
    const auto token = sign_jwt(no_expiry, issuer.ec, "ec-1");
    CHECK(failure_of(verify_jwt(token, issuer.keys, expectations())) == JwtFailure::missing_claim);
    auto lenient = expectations();
    lenient.require_expiry = false;
    CHECK(verify_jwt(token, issuer.keys, lenient));
    auto text_time = claims();
    text_time["exp"] = "tomorrow";
    CHECK(failure_of(verify_jwt(sign_jwt(text_time, issuer.ec, "ec-1"), issuer.keys,
                                expectations())) == JwtFailure::missing_claim);
}

TEST_CASE("wrong issuer and wrong audience, as a string or an array") {
    const Issuer issuer;
    const auto with = [&](const char* claim, const Json& value) {
        auto c = claims();
        c[claim] = value;
        return verify_jwt(sign_jwt(c, issuer.rsa, "rsa-1"), issuer.keys, expectations());
    };
    const auto issuer_result = with("iss", "https://evil.example");
    CHECK(failure_of(issuer_result) == JwtFailure::wrong_issuer);
    CHECK(issuer_result.error().message ==
          R"(iss: "https://evil.example" is not "https://issuer.example")");
    CHECK(failure_of(with("aud", "https://other.example")) == JwtFailure::wrong_audience);
    CHECK(failure_of(with("aud", Json::array({"a", "b"}))) == JwtFailure::wrong_audience);
    CHECK(failure_of(with("aud", 42)) == JwtFailure::missing_claim);
    auto no_issuer = claims();
    no_issuer.erase("iss");
    CHECK(failure_of(verify_jwt(sign_jwt(no_issuer, issuer.rsa, "rsa-1"), issuer.keys,
                                expectations())) == JwtFailure::missing_claim);
}

TEST_CASE("malformed tokens and unusable keys") {
    const Issuer issuer;
    for (const std::string& token :
         {std::string(""), std::string("a.b"), std::string("a.b.c.d.e"), std::string("!!.e30.AA"),
          unsigned_token({{"alg", "RS256"}}, "[1]", "AA")}) {
        CAPTURE(token);
        CHECK(failure_of(verify_jwt(token, issuer.keys, expectations())) == JwtFailure::malformed);
    }
    std::string why;
    const auto small = JsonWebKey::from_json(
        {{"kty", "RSA"}, {"n", crypto::base64url_encode(std::string(128, '\xff'))}, {"e", "AQAB"}},
        &why);
    CHECK_FALSE(small.has_value());
    CHECK(why == "the RSA key has fewer than 2048 bits");
    auto off_curve = issuer.ec.public_jwk("x");
    off_curve["y"] = crypto::base64url_encode(std::string(32, '\x01'));
    CHECK_FALSE(JsonWebKey::from_json(off_curve, &why).has_value());
    auto encryption = issuer.rsa.public_jwk("x");
    encryption["use"] = "enc";
    CHECK_FALSE(JsonWebKey::from_json(encryption).has_value());
    auto wrong_alg = issuer.rsa.public_jwk("x");
    wrong_alg["alg"] = "ES256";
    CHECK_FALSE(JsonWebKey::from_json(wrong_alg).has_value());
    CHECK_FALSE(JsonWebKey::from_json({{"kty", "oct"}, {"k", "c2VjcmV0"}}).has_value());
    CHECK_FALSE(JsonWebKey::from_json({{"kty", 1}}).has_value());
    CHECK_THROWS_AS(JsonWebKeySet::from_json(Json::array()), std::invalid_argument);
    // A key set keeps what it can use.
    const auto mixed =
        JsonWebKeySet::from_json({{"keys", {encryption, issuer.ec.public_jwk("ec")}}});
    CHECK(mixed.keys().size() == 1);
}

TEST_CASE("a signing key round-trips through PEM") {
    for (const auto algorithm : {Algorithm::rs256, Algorithm::es256}) {
        const auto key = SigningKey::generate(algorithm);
        const auto again = SigningKey::from_pem(key.to_pem());
        CHECK(again.algorithm() == algorithm);
        const auto keys = JsonWebKeySet::from_json({{"keys", {key.public_jwk("k")}}});
        CHECK(verify_jwt(sign_jwt(claims(), again, "k"), keys, expectations()));
    }
    CHECK_THROWS_AS(SigningKey::from_pem("-----BEGIN NOTHING-----"), std::invalid_argument);
}

}  // namespace
}  // namespace loupe::jose
