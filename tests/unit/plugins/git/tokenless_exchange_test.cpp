// End to end: POST /auth/github-actions/tokenless/exchange against the real `loupe serve` with
// the git plugin and a local GitHub stand-in. Every refusal comes in Argos's order: each step
// below breaks only the condition under test, everything checked before it holds.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "git_fixture.hpp"
#include "loupe/json.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const std::string head_sha = "0123456789abcdef0123456789abcdef01234567";
const std::string other_sha = "89abcdef0123456789abcdef0123456789abcdef";

json token_payload(const std::string& run_id, const json& extra = json::object()) {
    json payload{{"owner", "acme"}, {"repository", "web"}, {"jobId", "visual"}, {"runId", run_id}};
    payload.update(extra);
    return payload;
}

HttpResult exchange_token(GitServer& git, const std::string& token,
                          const std::string& commit = head_sha,
                          const std::string& branch = "feature") {
    return http_json("POST", git.url("/v2/auth/github-actions/tokenless/exchange"),
                     exchange_body(token, commit, branch));
}

json standin_data() {
    return {{"installations", {{"77", {{"mode", "ok"}, {"repositories", {"acme/web"}}}}}},
            {"runs",
             {{"acme/web/1001",
               {{"status", "in_progress"}, {"head_sha", head_sha}, {"head_branch", "feature"}}},
              {"acme/web/1002",
               {{"status", "completed"}, {"head_sha", head_sha}, {"head_branch", "feature"}}},
              {"acme/web/1003",
               {{"status", "queued"}, {"head_sha", head_sha}, {"head_branch", "feature"}}},
              {"acme/web/1500", {{"respond", 502}}},
              {"acme/web/1501", {{"hang", true}}}}}};
}

}  // namespace

TEST_CASE("tokenless exchange: every step of the check, in order, then a short-lived token") {
    GitServer git;
    git.standin().set_data(standin_data());
    const auto token = github_tokenless(token_payload("1001"));

    // The body is validated before anything else.
    auto invalid = http_json("POST", git.url("/v2/auth/github-actions/tokenless/exchange"),
                             {{"commit", "abc"}, {"branch", ""}});
    CHECK(invalid.status == 400);
    CHECK(error_of(invalid) == "Invalid request");
    CHECK(
        invalid.json()["details"] ==
        json::array(
            {{{"message", "tokenlessToken is Invalid input: expected string, received undefined"}},
             {{"message", "commit is Invalid string: must match pattern /^[0-9a-f]{40}$/"}},
             {{"message", "branch is Too small: expected string to have >=1 characters"}}}));

    // 1. The token must decode to {owner, repository, jobId, runId} (strings).
    for (const std::string& bad :
         {std::string("tokenless-github-%%%"), std::string("tokenless-github-bm90IGpzb24="),
          github_tokenless({{"owner", "acme"}, {"repository", "web"}, {"runId", "1001"}}),
          github_tokenless(token_payload("1001", {{"jobId", 7}})),
          github_tokenless(token_payload("1001", {{"project", nullptr}})), std::string("argos_x"),
          "tokenless-github-" + std::string(9000, 'A')}) {
        auto refused = exchange_token(git, bad);
        CHECK(refused.status == 401);
        CHECK(error_of(refused) == "Invalid token (token: \"" + bad + "\")");
    }

    // 2. A project must be linked to the repository.
    auto unlinked = exchange_token(git, token);
    CHECK(unlinked.status == 401);
    CHECK(error_of(unlinked) ==
          "No project found. Tokenless authentication requires an Argos project to be linked to "
          "your GitHub repository.");

    git.admin({"project", "link-github", "--project", "default/default", "--repo", "Acme/Web",
               "--installation-id", "77"});

    // 3. A project named in the token must be one of the linked ones.
    const auto named_other =
        github_tokenless(token_payload("1001", {{"project", "default/other"}}));
    auto not_linked = exchange_token(git, named_other);
    CHECK(not_linked.status == 400);
    CHECK(error_of(not_linked) ==
          "Project \"default/other\" not found for GitHub repository (token: \"" + named_other +
              "\"). Ensure the project slug matches an Argos project linked to this repository.");

    // 4. With two projects linked and none named, the caller must say which.
    git.admin({"project", "create", "--account", "default", "--name", "docs"});
    git.admin({"project", "link-github", "--project", "default/docs", "--repo", "acme/web",
               "--installation-id", "77"});
    auto ambiguous = exchange_token(git, token);
    CHECK(ambiguous.status == 400);
    CHECK(error_of(ambiguous) == "Multiple projects found for GitHub repository (token: \"" +
                                     token +
                                     "\"). Please specify a project slug or a project token.");
    git.admin({"project", "unlink", "--project", "default/docs"});

    // 5. The App must still be installed (GitHub: 404, or 403 when suspended).
    for (const char* mode : {"missing", "suspended"}) {
        git.standin().update([&](json& data) { data["installations"]["77"]["mode"] = mode; });
        auto gone = exchange_token(git, token);
        CHECK(gone.status == 401);
        CHECK(error_of(gone) ==
              "The Argos GitHub App is no longer installed on this repository. Reinstall the app "
              "or use a project token.");
    }

    // 6. GitHub failing or not answering: 503 within the configured timeout (2 s here).
    const std::string unavailable =
        "Unable to authenticate with GitHub for this installation. Please retry.";
    for (const char* mode : {"error", "hang"}) {
        git.standin().update([&](json& data) { data["installations"]["77"]["mode"] = mode; });
        const auto started = std::chrono::steady_clock::now();
        auto down = exchange_token(git, token);
        const auto took = std::chrono::steady_clock::now() - started;
        CHECK(down.status == 503);
        CHECK(error_of(down) == unavailable);
        CHECK(took < std::chrono::milliseconds(3500));
    }
    git.standin().update([](json& data) { data["installations"]["77"]["mode"] = "ok"; });
    for (const char* run : {"1500", "1501"}) {
        const auto started = std::chrono::steady_clock::now();
        auto down = exchange_token(git, github_tokenless(token_payload(run)));
        CHECK(down.status == 503);
        CHECK(error_of(down) == unavailable);
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(3500));
    }
    CHECK(git.standin().count("workflow_run") >= 4);  // the 502 was asked again

    // 7. The run must exist (a run id that is not a number cannot).
    for (const char* run : {"4040", "12ab"}) {
        const auto missing_run = github_tokenless(token_payload(run));
        auto missing = exchange_token(git, missing_run);
        CHECK(missing.status == 404);
        CHECK(error_of(missing) == "GitHub run not found (token: \"" + missing_run + "\")");
    }

    // 8. ... and be queued or in progress.
    const auto finished_run = github_tokenless(token_payload("1002"));
    auto finished = exchange_token(git, finished_run);
    CHECK(finished.status == 401);
    CHECK(error_of(finished) == "GitHub job is not in progress (token: \"" + finished_run + "\")");

    // 9. The project must allow tokenless authentication.
    auto disabled = exchange_token(git, token);
    CHECK(disabled.status == 403);
    CHECK(error_of(disabled) == "Tokenless authentication is not enabled for this project.");
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});

    // 10, 11. The run's commit and branch must be the ones asked for.
    auto wrong_commit = exchange_token(git, token, other_sha);
    CHECK(wrong_commit.status == 401);
    CHECK(error_of(wrong_commit) == "GitHub Actions workflow run does not match commit.");
    auto wrong_branch = exchange_token(git, token, head_sha, "main");
    CHECK(wrong_branch.status == 401);
    CHECK(error_of(wrong_branch) == "GitHub Actions workflow run does not match branch.");

    // Success: a short-lived token the project-token endpoints accept, valid 10 minutes.
    for (const auto& good :
         {token, github_tokenless(token_payload("1003", {{"project", "default/default"}}))}) {
        auto exchanged = exchange_token(git, good);
        REQUIRE(exchanged.status == 200);
        const auto body = exchanged.json();
        const auto issued = body["token"].get<std::string>();
        CHECK(issued.rfind("argos_tmp_", 0) == 0);
        CHECK(issued.size() == 50);
        const auto expires = loupe::parse_iso_time(body["expiresAt"].get<std::string>());
        REQUIRE(expires.has_value());
        CHECK(*expires - loupe::now_ms() > 9 * 60 * 1000);
        CHECK(*expires - loupe::now_ms() <= 10 * 60 * 1000);
        auto project = http_get(git.url("/v2/project"), issued);
        CHECK(project.status == 200);
        CHECK(project.json()["name"] == "default");
    }
    // Every installation token request carried a JWT the stand-in verified with the App's key,
    // and the installation token was reused across calls.
    CHECK(git.standin().count("installation_token") >= 1);
    CHECK(git.standin().count("installation_token") < git.standin().count("workflow_run"));
}

TEST_CASE("tokenless exchange: an expired short-lived token is refused") {
    GitServer git({.settings = {{"plugins.git.short_lived_token_ms", "1500"}}});
    git.standin().set_data(standin_data());
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    auto exchanged = exchange_token(git, github_tokenless(token_payload("1001")));
    REQUIRE(exchanged.status == 200);
    const auto issued = exchanged.json()["token"].get<std::string>();
    CHECK(http_get(git.url("/v2/project"), issued).status == 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(1700));
    auto expired = http_get(git.url("/v2/project"), issued);
    CHECK(expired.status == 401);
    CHECK(error_of(expired) == "Short-lived project token has expired or is invalid.");
}

TEST_CASE("tokenless exchange: a JWT signed with another key is refused by GitHub (503)") {
    loupe::test::TempDir keys;
    const auto other = make_app_keys();
    { std::ofstream(keys.path() + "/other.pem") << other.private_pem; }
    GitServer git({.settings = {{"github.app_private_key_file", keys.path() + "/other.pem"}}});
    git.standin().set_data(standin_data());
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto refused = exchange_token(git, github_tokenless(token_payload("1001")));
    CHECK(refused.status == 503);
    CHECK(git.standin().count("installation_token") == 1);
    CHECK(git.standin().count("workflow_run") == 0);
}

TEST_CASE("tokenless exchange over HTTPS: the provider's certificate is verified") {
    for (const bool trusted : {true, false}) {
        CAPTURE(trusted);
        GitServer git({.settings = {}, .tls = true, .trust_test_ca = trusted});
        git.standin().set_data(standin_data());
        git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
                   "--installation-id", "77"});
        git.admin(
            {"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
        auto result = exchange_token(git, github_tokenless(token_payload("1001")));
        // Without the test CA the handshake fails: no request ever reaches the stand-in.
        CHECK(result.status == (trusted ? 200 : 503));
        CHECK(git.standin().count("installation_token") == (trusted ? 1 : 0));
    }
}
