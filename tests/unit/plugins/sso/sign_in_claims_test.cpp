// The claims an OpenID Connect sign-in accepts: the nonce of this sign-in, a verified email of an
// allowed domain, the groups of the roles claim; and every refusal.
#include "oidc/sign_in_claims.hpp"

#include <doctest/doctest.h>

namespace {

using loupe::Json;
using loupe::sso::sign_in_identity;
using loupe::sso::SignInIdentity;
using loupe::sso::SignInPolicy;
using loupe::sso::SignInRefusal;

const std::string sent_nonce = "n-0S6_WzA2Mj";

Json verified_claims() {
    return {{"sub", "248289761001"},  {"email", "Jane.Doe@Acme.example"},
            {"email_verified", true}, {"name", "Jane Doe"},
            {"nonce", sent_nonce},    {"groups", {"loupe-admins", "staff", 7}}};
}

std::string refusal_of(const Json& claims, const SignInPolicy& policy = {}) {
    const auto result = sign_in_identity(claims, sent_nonce, policy);
    REQUIRE(std::holds_alternative<SignInRefusal>(result));
    return std::get<SignInRefusal>(result).message;
}

}  // namespace

TEST_CASE("OIDC sign-in claims: a verified email with its groups") {
    const auto result = sign_in_identity(verified_claims(), sent_nonce, {{"acme.example"}});
    REQUIRE(std::holds_alternative<SignInIdentity>(result));
    const auto& identity = std::get<SignInIdentity>(result);
    CHECK(identity.subject == "248289761001");
    CHECK(identity.email == "Jane.Doe@Acme.example");
    CHECK(identity.name == "Jane Doe");
    CHECK(identity.groups == std::vector<std::string>{"loupe-admins", "staff"});

    Json single_group = verified_claims();
    single_group["roles"] = "reviewers";
    single_group.erase("name");
    single_group["preferred_username"] = "jane";
    const auto other_claim = sign_in_identity(single_group, sent_nonce, {{}, "roles"});
    REQUIRE(std::holds_alternative<SignInIdentity>(other_claim));
    CHECK(std::get<SignInIdentity>(other_claim).groups == std::vector<std::string>{"reviewers"});
    CHECK(std::get<SignInIdentity>(other_claim).name == "jane");
}

TEST_CASE("OIDC sign-in claims: refusals") {
    Json claims = verified_claims();
    claims["nonce"] = "another sign-in's nonce";
    CHECK(refusal_of(claims).find("nonce") != std::string::npos);
    claims.erase("nonce");
    CHECK(refusal_of(claims).find("nonce") != std::string::npos);
    CHECK(std::holds_alternative<SignInRefusal>(sign_in_identity(verified_claims(), "", {})));

    claims = verified_claims();
    claims["email_verified"] = false;
    CHECK(refusal_of(claims).find("not verified") != std::string::npos);
    claims["email_verified"] = "true";  // only the boolean counts
    CHECK(refusal_of(claims).find("not verified") != std::string::npos);
    claims.erase("email_verified");
    CHECK(refusal_of(claims).find("not verified") != std::string::npos);

    claims = verified_claims();
    claims.erase("email");
    CHECK(refusal_of(claims).find("no email") != std::string::npos);
    claims["email"] = "jane@";
    CHECK(refusal_of(claims).find("no email") != std::string::npos);

    claims = verified_claims();
    claims["sub"] = "";
    CHECK(refusal_of(claims).find("subject") != std::string::npos);

    // Exact domains: a subdomain or a look-alike suffix is another domain.
    CHECK(refusal_of(verified_claims(), {{"example"}}).find("acme.example") != std::string::npos);
    claims = verified_claims();
    claims["email"] = "jane@evil-acme.example";
    CHECK(refusal_of(claims, {{"acme.example"}}).find("evil-acme.example") != std::string::npos);
    claims["email"] = "jane@eu.acme.example";
    CHECK(refusal_of(claims, {{"acme.example"}}).find("eu.acme.example") != std::string::npos);

    CHECK(refusal_of(Json::array()).find("no claims") != std::string::npos);
}
