// PKCE S256 against the known answer of RFC 7636 (appendix B), and fresh verifiers that are
// well-formed and never repeat.
#include "loupe/jose/pkce.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>

TEST_CASE("PKCE S256: the challenge of RFC 7636's example verifier") {
    CHECK(loupe::jose::s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") ==
          "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST_CASE("PKCE S256: a new verifier is 43 unreserved characters, with its own challenge") {
    const auto first = loupe::jose::new_pkce();
    const auto second = loupe::jose::new_pkce();
    CHECK(first.verifier.size() == 43);
    CHECK(std::ranges::all_of(first.verifier, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    }));
    CHECK(first.challenge == loupe::jose::s256_challenge(first.verifier));
    CHECK(first.verifier != second.verifier);
    CHECK(first.challenge != second.challenge);
}
