#include "auth/authenticator.hpp"

#include <doctest/doctest.h>

#include "auth/oauth_scopes.hpp"
#include "auth/token_format.hpp"
#include "loupe/json.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

using test::Refusal;
using test::refusal_of;

const std::string requires_pat =
    "This endpoint requires a personal access token. See https://argos-ci.com/docs for details.";
const std::string requires_project_token =
    "This endpoint requires a project token. See https://argos-ci.com/docs for details.";
const std::string no_account_access =
    "You do not have access to this account. Check that your personal access token is scoped "
    "to it.";
const std::string no_valid_scope =
    "This token has no valid scope, probably because you are not anymore in the team that was "
    "in the scope, please generate a new one.";
const std::string short_lived_invalid = "Short-lived project token has expired or is invalid.";

std::string project_not_found(const std::string& token) {
    return "Project not found in Argos. If the issue persists, verify your token. (token: \"" +
           token + "\").";
}

/// alice owns team acme (project acme/web); bob is a member of acme.
struct AuthFixture : test::IdentityFixture {
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator{*database, resolvers};
    User alice = identity.create_user("alice", "Alice");
    User bob = identity.create_user("bob", "Bob");
    Account acme = identity.create_team("acme", "Acme", "alice");
    std::pair<Project, IssuedToken> web = identity.create_project("acme", "web", "main");

    AuthFixture() { identity.add_member("acme", "bob", Role::member); }

    Principal authenticate(const std::string& token,
                           AuthRequirement requirement = AuthRequirement::project_or_personal_token,
                           const std::string* account = nullptr) {
        return authenticator.authenticate("Bearer " + token, requirement, account);
    }
    Refusal refusal(const std::string& token,
                    AuthRequirement requirement = AuthRequirement::project_or_personal_token,
                    const std::string* account = nullptr) {
        return refusal_of([&] { authenticate(token, requirement, account); });
    }
};

TEST_CASE_FIXTURE(AuthFixture, "routes without authentication ignore the header") {
    const Principal principal =
        authenticator.authenticate(std::nullopt, AuthRequirement::none, nullptr);
    CHECK(principal.kind == Principal::Kind::anonymous);
    CHECK(authenticator.authenticate("garbage", AuthRequirement::none, nullptr).kind ==
          Principal::Kind::anonymous);
}

TEST_CASE_FIXTURE(AuthFixture, "a missing or empty header is 401, a malformed one 400") {
    const Refusal missing{401, "Authorization header is missing"};
    CHECK(refusal_of([&] {
              authenticator.authenticate(std::nullopt, AuthRequirement::project_token, nullptr);
          }) == missing);
    CHECK(refusal_of([&] {
              authenticator.authenticate("", AuthRequirement::project_token, nullptr);
          }) == missing);
    CHECK(refusal_of([&] {
              authenticator.authenticate("Bearer", AuthRequirement::project_token, nullptr);
          }) == Refusal{400, "Invalid authorization header"});
    CHECK(refusal_of([&] {
              authenticator.authenticate("Token x", AuthRequirement::project_token, nullptr);
          }) ==
          Refusal{400, "Invalid authorization header scheme \"Token\", please use \"Bearer\""});
    CHECK(refusal_of([&] {
              authenticator.authenticate("Bearer a b", AuthRequirement::project_token, nullptr);
          }) == Refusal{400, "Invalid authorization header, no valid Bearer found"});
}

TEST_CASE_FIXTURE(AuthFixture, "a project token resolves to its project") {
    const Principal principal = authenticate(web.second.token, AuthRequirement::project_token);
    CHECK(principal.kind == Principal::Kind::project);
    CHECK(principal.project_id == web.first.id);
    CHECK(principal.project_account_id == acme.id);
    CHECK(principal.token_id == web.second.id);
    CHECK_FALSE(principal.bound_commit.has_value());
}

TEST_CASE_FIXTURE(AuthFixture, "unknown and revoked project tokens are refused with the token") {
    const std::string unknown = generate_project_token();
    CHECK(refusal(unknown) == Refusal{401, project_not_found(unknown)});
    CHECK(refusal("whatever") == Refusal{401, project_not_found("whatever")});
    // Only an arp_ token of exactly 40 characters is a PAT; any other is looked up as a project
    // token.
    const std::string short_pat = "arp_abc";
    CHECK(refusal(short_pat) == Refusal{401, project_not_found(short_pat)});

    CHECK(identity.revoke_tokens(token_prefix(web.second.token)) == 1);
    CHECK(refusal(web.second.token) == Refusal{401, project_not_found(web.second.token)});
}

TEST_CASE_FIXTURE(AuthFixture, "a personal access token resolves to its user and scope") {
    const auto pat = identity.create_personal_token("bob", {"acme", "bob"}, std::nullopt);
    const Principal principal = authenticate(pat.token, AuthRequirement::personal_token);
    CHECK(principal.kind == Principal::Kind::user);
    CHECK(principal.user_id == bob.id);
    CHECK(principal.token_id == pat.id);
    REQUIRE(principal.scope.size() == 2);
    CHECK(principal.scope[0].slug == "acme");
    CHECK(principal.scope[0].id == acme.id);
    CHECK(principal.scope[1].slug == "bob");
    CHECK(principal.scope[1].id == bob.account_id);
}

TEST_CASE_FIXTURE(AuthFixture, "personal access token refusals") {
    SUBCASE("unknown") {
        CHECK(refusal(generate_personal_token()) == Refusal{401, "Access token not found"});
    }
    SUBCASE("revoked is unknown") {
        const auto pat = identity.create_personal_token("bob", {"acme"}, std::nullopt);
        CHECK(identity.revoke_tokens(pat.token) == 1);
        CHECK(refusal(pat.token) == Refusal{401, "Access token not found"});
    }
    SUBCASE("expired") {
        const auto pat = identity.create_personal_token("bob", {"acme"}, now_ms() + 60'000);
        CHECK(authenticate(pat.token).is_user());
        execute("UPDATE tokens SET expires_at = :at WHERE id = :id", now_ms() - 1, pat.id);
        CHECK(refusal(pat.token) == Refusal{401, "Personal access token has expired"});
    }
    SUBCASE("scope entries the user left are dropped; none left is refused") {
        const auto pat = identity.create_personal_token("bob", {"acme", "bob"}, std::nullopt);
        const auto team_only = identity.create_personal_token("bob", {"acme"}, std::nullopt);
        execute("DELETE FROM team_members WHERE user_id = :user", bob.id);
        const Principal principal = authenticate(pat.token);
        REQUIRE(principal.scope.size() == 1);
        CHECK(principal.scope[0].slug == "bob");
        CHECK(refusal(team_only.token) == Refusal{401, no_valid_scope});
    }
    SUBCASE("OAuth access tokens: Loupe issues none") {
        CHECK(refusal("argos_oat_" + std::string(30, 'a')) ==
              Refusal{401, "Access token not found"});
    }
}

TEST_CASE_FIXTURE(AuthFixture, "the route's requirement is enforced after the token resolves") {
    const auto pat = identity.create_personal_token("bob", {"acme"}, std::nullopt);
    CHECK(refusal(web.second.token, AuthRequirement::personal_token) == Refusal{401, requires_pat});
    CHECK(refusal(web.second.token, AuthRequirement::personal_token_for_account) ==
          Refusal{401, requires_pat});
    CHECK(refusal(pat.token, AuthRequirement::project_token) ==
          Refusal{401, requires_project_token});
    CHECK(authenticate(pat.token, AuthRequirement::project_or_personal_token).is_user());
    CHECK(authenticate(web.second.token, AuthRequirement::project_or_personal_token).is_project());

    const std::string in_scope = "acme";
    const std::string out_of_scope = "alice";
    const std::string missing = "nobody";
    CHECK(
        authenticate(pat.token, AuthRequirement::personal_token_for_account, &in_scope).is_user());
    CHECK(refusal(pat.token, AuthRequirement::personal_token_for_account, &out_of_scope) ==
          Refusal{401, no_account_access});
    CHECK(refusal(pat.token, AuthRequirement::personal_token_for_account, &missing) ==
          Refusal{401, no_account_access});
}

TEST_CASE_FIXTURE(AuthFixture, "short-lived project tokens") {
    const auto bound =
        identity.issue_short_lived_token(web.first.id, 600'000, RunBinding(std::string(40, 'a')));
    const Principal principal = authenticate(bound.token, AuthRequirement::project_token);
    CHECK(principal.is_project());
    CHECK(principal.project_id == web.first.id);
    CHECK(principal.project_account_id == acme.id);
    CHECK(principal.bound_commit == std::string(40, 'a'));

    const auto unbound = identity.issue_short_lived_token(web.first.id, 600'000, RunBinding());
    CHECK_FALSE(authenticate(unbound.token).bound_commit.has_value());

    execute("UPDATE tokens SET expires_at = :at WHERE id = :id", now_ms() - 1, unbound.id);
    CHECK(refusal(unbound.token) == Refusal{401, short_lived_invalid});
    CHECK(refusal(generate_short_lived_token()) == Refusal{401, short_lived_invalid});
    CHECK(refusal("argos_tmp_short") == Refusal{401, short_lived_invalid});
}

TEST_CASE_FIXTURE(AuthFixture, "plugin token kinds: the longest matching prefix wins") {
    resolvers["tokenless-"] = [](const std::string&) -> Principal {
        throw HttpError::unauthorized("short prefix");
    };
    resolvers["tokenless-github-"] = [this](const std::string& token) {
        if (token == "tokenless-github-nope") {
            throw HttpError::unauthorized("no such run");
        }
        Principal principal;
        principal.kind = Principal::Kind::project;
        principal.project_id = web.first.id;
        principal.project_account_id = acme.id;
        return principal;
    };
    CHECK(authenticate("tokenless-github-abc", AuthRequirement::project_token).project_id ==
          web.first.id);
    CHECK(refusal("tokenless-github-nope") == Refusal{401, "no such run"});
    CHECK(refusal("tokenless-other") == Refusal{401, "short prefix"});
    CHECK(refusal("tokenless-github-abc", AuthRequirement::personal_token) ==
          Refusal{401, requires_pat});
}

TEST_CASE_FIXTURE(AuthFixture, "last use is recorded at most once a minute") {
    auto last_used = [&] {
        auto session = database->session();
        long long at = 0;
        soci::indicator indicator = soci::i_null;
        *session << "SELECT last_used_at FROM tokens WHERE id = :id", soci::use(web.second.id),
            soci::into(at, indicator);
        return indicator == soci::i_null ? std::optional<long long>() : std::optional(at);
    };
    CHECK_FALSE(last_used().has_value());
    const int64_t before = now_ms();
    authenticate(web.second.token);
    REQUIRE(last_used().has_value());
    CHECK(*last_used() >= before);

    execute("UPDATE tokens SET last_used_at = :at WHERE id = :id", int64_t{5}, web.second.id);
    authenticate(web.second.token);  // long ago: recorded again
    CHECK(*last_used() >= before);
    const int64_t recent = now_ms() - 30'000;
    execute("UPDATE tokens SET last_used_at = :at WHERE id = :id", recent, web.second.id);
    authenticate(web.second.token);  // within the minute: no write
    CHECK(*last_used() == recent);
}

}  // namespace

// The scope each route needs from an OAuth access token, and the refusal of a token without it.
/// The scope an OAuth access token needs for a route, "(refused)" when none opens it.
std::string oauth_scope_of(Method method, std::string_view pattern) {
    return std::string(oauth_scope_for(method, pattern).value_or("(refused)"));
}

TEST_CASE("oauth scopes: each kind of route needs the scope Argos names for it") {
    CHECK(oauth_scope_of(Method::get, "/me") == "profile");
    CHECK(oauth_scope_of(Method::get, "/accounts/{accountSlug}") == "profile");
    CHECK(oauth_scope_of(Method::patch, "/accounts/{accountSlug}") == "account:admin");
    CHECK(oauth_scope_of(Method::get, "/accounts/{accountSlug}/members") == "account:admin");
    CHECK(oauth_scope_of(Method::del, "/accounts/{accountSlug}/invites/{inviteId}") ==
          "account:admin");
    CHECK(oauth_scope_of(Method::post, "/accounts/{accountSlug}/invite-link/reset") ==
          "account:admin");
    CHECK(oauth_scope_of(Method::get, "/accounts/{accountSlug}/projects") == "projects:read");
    CHECK(oauth_scope_of(Method::get, "/_loupe/accounts/{accountSlug}/audit") == "account:admin");
    CHECK(oauth_scope_of(Method::get, "/accounts/{accountSlug}/analytics") == "projects:read");
    CHECK(oauth_scope_of(Method::post, "/projects") == "projects:write");
    CHECK(oauth_scope_of(Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/diffs") ==
          "projects:read");
    CHECK(oauth_scope_of(Method::patch, "/projects/{owner}/{project}") == "projects:write");
    CHECK(oauth_scope_of(Method::post, "/projects/{owner}/{project}/transfer") == "projects:write");
    CHECK(oauth_scope_of(Method::put, "/projects/{owner}/{project}/automation-rules/{ruleId}") ==
          "projects:write");
    CHECK(
        oauth_scope_of(Method::post, "/projects/{owner}/{project}/builds/{buildNumber}/reviews") ==
        "reviews:write");
    CHECK(oauth_scope_of(Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/reviews") ==
          "projects:read");
    CHECK(oauth_scope_of(Method::post,
                         "/projects/{owner}/{project}/builds/{buildNumber}/reviewers") ==
          "reviews:write");
    CHECK(oauth_scope_of(Method::post, "/projects/{owner}/{project}/changes/{changeId}/ignore") ==
          "reviews:write");
    CHECK(
        oauth_scope_of(Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/comments") ==
        "comments:read");
    CHECK(oauth_scope_of(Method::post,
                         "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}/"
                         "reactions") == "comments:write");
    CHECK(oauth_scope_of(Method::post,
                         "/projects/{owner}/{project}/builds/{buildNumber}/subscription") ==
          "comments:write");
    CHECK(oauth_scope_of(Method::get,
                         "/_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/runs") ==
          "projects:read");
    CHECK(oauth_scope_of(Method::patch, "/_loupe/notifications/settings") == "profile");
    CHECK(oauth_scope_of(Method::get, "/media/{mediaId}") == "media:read");
    CHECK(oauth_scope_of(Method::post, "/media") == "media:write");
    // Sending builds and deployments takes a project token; the page's session routes a cookie.
    CHECK(oauth_scope_of(Method::post, "/builds") == "(refused)");
    CHECK(oauth_scope_of(Method::post, "/deployments") == "(refused)");
    CHECK(oauth_scope_of(Method::del, "/_loupe/session") == "(refused)");
    CHECK(oauth_scope_of(Method::post, "/accounts/{accountSlug}/projects") == "(refused)");
}

TEST_CASE("oauth scopes: a token without the route's scope gets a 403 naming it") {
    Principal oauth;
    oauth.kind = Principal::Kind::user;
    oauth.oauth_scopes = std::vector<std::string>{"profile", "projects:read"};
    CHECK_NOTHROW(require_oauth_scope(oauth, Method::get, "/projects/{owner}/{project}/builds"));
    try {
        require_oauth_scope(oauth, Method::post,
                            "/projects/{owner}/{project}/builds/{buildNumber}/comments");
        FAIL("the comment was allowed");
    } catch (const HttpError& error) {
        CHECK(error.status() == 403);
        CHECK(std::string(error.what()) ==
              "Insufficient scope. This endpoint requires: comments:write.");
    }
    CHECK_THROWS_AS(require_oauth_scope(oauth, Method::post, "/builds"), HttpError);

    Principal personal;  // a personal access token: no scopes limit it
    personal.kind = Principal::Kind::user;
    CHECK_NOTHROW(require_oauth_scope(personal, Method::post, "/builds"));
}

}  // namespace loupe
