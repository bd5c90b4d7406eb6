#include "auth/bearer_header.hpp"

#include <doctest/doctest.h>

#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

using test::Refusal;
using test::refusal_of;

Refusal parse_refusal(const std::string& header) {
    return refusal_of([&] { parse_bearer_header(header); });
}

const Refusal invalid_header{400, "Invalid authorization header"};
const Refusal no_valid_bearer{400, "Invalid authorization header, no valid Bearer found"};

Refusal wrong_scheme(const std::string& scheme) {
    return {400, "Invalid authorization header scheme \"" + scheme + "\", please use \"Bearer\""};
}

TEST_CASE("a single bearer token is accepted") {
    CHECK(parse_bearer_header("Bearer argos_abc123") == "argos_abc123");
    CHECK(parse_bearer_header("Bearer mF_9.B5f-4.1JqM") == "mF_9.B5f-4.1JqM");
    CHECK(parse_bearer_header("Bearer abc==") == "abc==");
    CHECK(parse_bearer_header("Bearer   spaced") == "spaced");
    CHECK(parse_bearer_header("  Bearer trimmed  ") == "trimmed");
    // A token (not token68) is accepted too, as by the auth-header parser.
    CHECK(parse_bearer_header("Bearer abc$def") == "abc$def");
    // Parameters are ignored; the single bare token counts.
    CHECK(parse_bearer_header("Bearer realm=\"x\" tok") == "tok");
}

TEST_CASE("header parsing refusals carry the Argos statuses and messages") {
    CHECK(parse_refusal("Bearer") == invalid_header);
    CHECK(parse_refusal("Bearer ") == invalid_header);  // trailing whitespace is not a value
    CHECK(parse_refusal("Bearerxyz") == invalid_header);
    CHECK(parse_refusal("Bearer\ttoken") == invalid_header);
    CHECK(parse_refusal("B(r) token") == invalid_header);
    CHECK(parse_refusal(" token") == invalid_header);

    CHECK(parse_refusal("bearer token") == wrong_scheme("bearer"));
    CHECK(parse_refusal("Basic dXNlcjpwYXNz") == wrong_scheme("Basic"));
    CHECK(parse_refusal("BEARER token") == wrong_scheme("BEARER"));
    CHECK(parse_refusal("Token abc") == wrong_scheme("Token"));

    CHECK(parse_refusal("Bearer a b") == no_valid_bearer);
    CHECK(parse_refusal("Bearer a=b") == no_valid_bearer);
    CHECK(parse_refusal("Bearer a=\"quoted\"") == no_valid_bearer);
    CHECK(parse_refusal("Bearer ,") == no_valid_bearer);
    CHECK(parse_refusal("Bearer  \t ") == invalid_header);  // all blank after trimming
}

}  // namespace
}  // namespace loupe
