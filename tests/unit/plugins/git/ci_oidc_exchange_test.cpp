// End to end: POST /auth/github-actions/oidc/exchange and /auth/gitlab-ci/oidc/exchange against
// the real `loupe serve` with the git plugin, the stand-in as the ID tokens' issuer (discovery,
// JWKS, its own RSA keys). One server walks every refusal, in the exchange's order, then key
// rotation, then what the short-lived token may send.
#include <doctest/doctest.h>

#include <ctime>

#include "git_fixture.hpp"
#include "loupe/json.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const std::string oidc_head_sha = "0123456789abcdef0123456789abcdef01234567";
const std::string oidc_other_sha = "89abcdef0123456789abcdef0123456789abcdef";

json github_claims(const std::string& audience, const json& extra = json::object()) {
    json claims{{"aud", audience},
                {"sub", "repo:acme/web:ref:refs/heads/feature"},
                {"repository", "acme/web"},
                {"repository_id", "123456"},
                {"repository_owner", "acme"},
                {"sha", oidc_head_sha},
                {"ref", "refs/heads/feature"},
                {"event_name", "push"}};
    claims.update(extra);
    return claims;
}

json gitlab_claims(const std::string& audience, const json& extra = json::object()) {
    json claims{{"aud", audience},
                {"sub", "project_path:group/app:ref_type:branch:ref:feature"},
                {"project_path", "group/app"},
                {"project_id", "501"},
                {"sha", oidc_head_sha},
                {"ref", "feature"},
                {"ref_type", "branch"},
                {"pipeline_source", "push"}};
    claims.update(extra);
    return claims;
}

json oidc_build_body(const std::string& commit, const std::string& branch) {
    return {{"commit", commit}, {"branch", branch}, {"screenshotKeys", json::array()}};
}

int64_t oidc_now_s() {
    return static_cast<int64_t>(std::time(nullptr));
}

}  // namespace

TEST_CASE("CI OIDC exchange: GitHub Actions and GitLab CI ID tokens, every refusal, rotation") {
    GitServer git;
    auto& standin = git.standin();
    standin.set_data({{"oidc", {{"keys", {"k1"}}, {"signWith", "k1"}}}});
    const auto audience = git.server().base_url();  // what the Argos CLI asks for
    const auto github_url = git.url("/v2/auth/github-actions/oidc/exchange");
    const auto gitlab_url = git.url("/v2/auth/gitlab-ci/oidc/exchange");
    auto exchange = [&](const std::string& url, const std::string& token,
                        const json& extra = json::object()) {
        json body{{"oidcToken", token}};
        body.update(extra);
        return http_json("POST", url, body);
    };
    const auto good = standin.sign_id_token("github", github_claims(audience));

    // The body is validated first.
    auto invalid = http_json("POST", github_url, {{"commit", "abc"}, {"repository", "web"}});
    CHECK(invalid.status == 400);
    CHECK(invalid.json()["details"].size() == 3);

    // No project linked to the token's repository (Argos: 401).
    auto unlinked = exchange(github_url, good);
    CHECK(unlinked.status == 401);
    CHECK(error_of(unlinked) == "No Argos project is linked to this GitHub repository.");
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "Acme/Web",
               "--installation-id", "77"});

    // Linked, but the project did not turn GitHub Actions OIDC on.
    auto disabled = exchange(github_url, good);
    CHECK(disabled.status == 403);
    CHECK(error_of(disabled) ==
          "GitHub Actions OIDC authentication is not enabled for this project. Enable it in the "
          "project settings.");
    CHECK(git.admin({"project", "github-actions-oidc", "--project", "default/default", "--enabled",
                     "true"})
              .find("GitHub Actions OIDC authentication enabled") != std::string::npos);

    // Tokens that must not pass: each says which check failed.
    const std::string invalid_message = "Invalid GitHub Actions OIDC token.";
    auto refused = [&](const std::string& token, const std::string& check) {
        auto result = exchange(github_url, token);
        CHECK(result.status == 401);
        CHECK(error_of(result) == invalid_message);
        const auto details = result.json()["details"];
        REQUIRE(details.size() == 1);
        CHECK(details[0]["message"].get<std::string>().starts_with(check));
    };
    refused(standin.sign_id_token("github", github_claims("https://elsewhere.example")), "aud");
    refused(standin.sign_id_token("github", github_claims(audience, {{"iat", oidc_now_s() - 900},
                                                                     {"nbf", oidc_now_s() - 900},
                                                                     {"exp", oidc_now_s() - 600}})),
            "exp");
    refused(standin.sign_id_token("github", github_claims(audience, {{"nbf", oidc_now_s() + 600}})),
            "nbf");
    refused(
        standin.sign_id_token("github", github_claims(audience, {{"iss", "https://evil.example"}})),
        "iss");
    refused(standin.sign_id_token("github", github_claims(audience, {{"repository", nullptr}})),
            "repository");
    // A signature of other claims: the header and claims of one token, the signature of another.
    const auto other =
        standin.sign_id_token("github", github_claims(audience, {{"sha", oidc_other_sha}}));
    const auto tampered = good.substr(0, good.rfind('.')) + other.substr(other.rfind('.'));
    auto bad_signature = exchange(github_url, tampered);
    CHECK(bad_signature.status == 401);
    CHECK(error_of(bad_signature) == invalid_message);
    refused("not.a.token", "");

    // The body's repository and commit, when given, must be the token's.
    auto other_repository = exchange(github_url, good, {{"repository", "acme/api"}});
    CHECK(other_repository.status == 401);
    CHECK(error_of(other_repository) == "GitHub Actions OIDC token does not match repository.");
    auto other_commit = exchange(github_url, good, {{"commit", oidc_other_sha}});
    CHECK(other_commit.status == 401);
    CHECK(error_of(other_commit) == "GitHub Actions OIDC token does not match commit.");

    // Success, with what the Argos CLI sends: a short-lived token bound to the commit and branch.
    auto exchanged = exchange(github_url, good,
                              {{"repository", "acme/web"},
                               {"commit", oidc_head_sha},
                               {"branch", "feature"},
                               {"pullRequestNumber", nullptr}});
    REQUIRE(exchanged.status == 200);
    const auto issued = exchanged.json()["token"].get<std::string>();
    CHECK(issued.starts_with("argos_tmp_"));
    const auto expires = loupe::parse_iso_time(exchanged.json()["expiresAt"].get<std::string>());
    REQUIRE(expires.has_value());
    CHECK(*expires - loupe::now_ms() > 9 * 60 * 1000);
    const auto builds = git.url("/v2/builds");
    auto wrong_commit =
        http_json("POST", builds, oidc_build_body(oidc_other_sha, "feature"), issued);
    CHECK(wrong_commit.status == 401);
    CHECK(error_of(wrong_commit) == "Token is bound to a different commit than the one provided.");
    CHECK(http_json("POST", builds, oidc_build_body(oidc_head_sha, "main"), issued).status == 401);
    CHECK(http_json("POST", builds, oidc_build_body(oidc_head_sha, "feature"), issued).status ==
          201);
    // One discovery and one key set for all of the above.
    CHECK(standin.count("oidc_discovery") == 1);
    CHECK(standin.count("oidc_jwks") == 1);

    // The issuer rotates to k2: the unknown kid fetches the key set again, once.
    standin.update([](json& data) { data["oidc"]["keys"] = {"k2"}; });
    const auto rotated =
        standin.sign_id_token("github", github_claims(audience, {{"jti", "rotated"}}), "k2");
    CHECK(exchange(github_url, rotated).status == 200);
    CHECK(standin.count("oidc_jwks") == 2);
    // Another unknown kid right after: no fetch (at most one a minute), refused.
    standin.update([](json& data) { data["oidc"]["keys"] = {"k2", "k3"}; });
    for (int i = 0; i < 5; ++i) {
        refused(standin.sign_id_token("github", github_claims(audience), "k3"), "kid");
    }
    CHECK(standin.count("oidc_jwks") == 2);

    // GitLab CI: the issuer is the GitLab instance of gitlab.api_url.
    const auto gitlab_good = standin.sign_id_token("gitlab", gitlab_claims(audience), "k2");
    git.admin({"project", "create", "--account", "default", "--name", "app"});
    auto no_gitlab = exchange(gitlab_url, gitlab_good);
    CHECK(no_gitlab.status == 401);
    CHECK(error_of(no_gitlab) == "No project is linked to this GitLab project.");
    git.admin({"project", "link-gitlab", "--project", "default/app", "--gitlab-project",
               "group/app", "--gitlab-project-id", "501"});
    auto gitlab_disabled = exchange(gitlab_url, gitlab_good);
    CHECK(gitlab_disabled.status == 403);
    git.admin({"project", "gitlab-ci-oidc", "--project", "default/app", "--enabled", "true"});
    // A GitHub token is not a GitLab one (issuer), and a renamed path's new owner (another
    // project id) does not get the link's project.
    auto github_at_gitlab = exchange(gitlab_url, rotated);
    CHECK(github_at_gitlab.status == 401);
    CHECK(error_of(github_at_gitlab) == "Invalid GitLab CI OIDC token.");
    auto other_id = exchange(
        gitlab_url,
        standin.sign_id_token("gitlab", gitlab_claims(audience, {{"project_id", "999"}}), "k2"));
    CHECK(other_id.status == 401);
    CHECK(error_of(other_id) == "No project is linked to this GitLab project.");
    auto gitlab_commit = exchange(gitlab_url, gitlab_good, {{"commit", oidc_other_sha}});
    CHECK(gitlab_commit.status == 401);
    CHECK(error_of(gitlab_commit) == "GitLab CI OIDC token does not match commit.");

    auto gitlab_exchanged = exchange(gitlab_url, gitlab_good, {{"commit", oidc_head_sha}});
    REQUIRE(gitlab_exchanged.status == 200);
    const auto cli_token = gitlab_exchanged.json()["token"].get<std::string>();
    CHECK(cli_token.size() == 40);  // the length the Argos CLI takes in ARGOS_TOKEN
    CHECK(http_get(git.url("/v2/project"), cli_token).json()["name"] == "app");
    CHECK(http_json("POST", builds, oidc_build_body(oidc_other_sha, "feature"), cli_token).status ==
          401);
    CHECK(http_json("POST", builds, oidc_build_body(oidc_head_sha, "feature"), cli_token).status ==
          201);
    // GitLab's discovery was its own; its keys came with it.
    CHECK(standin.count("oidc_discovery") == 2);

    // The switches show in the Project resource.
    const auto project = http_get(git.url("/v2/project"), cli_token).json();
    CHECK(project["gitlabCiOidcEnabled"] == true);
    CHECK(project["githubActionsOidcEnabled"] == false);
    CHECK(project["tokenlessAuthEnabled"] == false);
}
