// End to end: tokenless bearers sent directly to project-token endpoints (what the 4.x CLI does
// on GitHub Actions), and GitLab CI's keyless upload, against local GitHub/GitLab stand-ins.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "git_fixture.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const std::string job_sha = "0123456789abcdef0123456789abcdef01234567";
const std::string bearer_other_sha = "89abcdef0123456789abcdef0123456789abcdef";

json bearer_github_data() {
    return {{"installations", {{"77", {{"mode", "ok"}, {"repositories", {"acme/web"}}}}}},
            {"runs",
             {{"acme/web/1001",
               {{"status", "in_progress"}, {"head_sha", job_sha}, {"head_branch", "feature"}}},
              {"acme/web/1002",
               {{"status", "completed"}, {"head_sha", job_sha}, {"head_branch", "feature"}}}}}};
}

std::string run_token(const std::string& run_id) {
    return github_tokenless(
        {{"owner", "acme"}, {"repository", "web"}, {"jobId", "visual"}, {"runId", run_id}});
}

}  // namespace

TEST_CASE("tokenless GitHub bearer: verified once, then trusted while the project allows it") {
    GitServer git;
    git.standin().set_data(bearer_github_data());
    const auto token = run_token("1001");
    const std::string not_found =
        "Project not found. Ensure a project exists in Argos (https://app.argos-ci.com) and "
        "restart your test after setup. Persisting issue? Consider adding 'ARGOS_TOKEN' to your "
        "CI environment variables. (token: \"" +
        token + "\").";

    auto unlinked = http_get(git.url("/v2/project"), token);
    CHECK(unlinked.status == 401);
    CHECK(error_of(unlinked) == not_found);
    auto garbage = http_get(git.url("/v2/project"), "tokenless-github-e30=");
    CHECK(garbage.status == 401);
    CHECK(error_of(garbage) == "Invalid token (token: \"tokenless-github-e30=\")");

    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto disabled = http_get(git.url("/v2/project"), token);
    CHECK(disabled.status == 403);
    CHECK(error_of(disabled) ==
          "Tokenless authentication is disabled for this project. Set the ARGOS_TOKEN "
          "environment variable to authenticate.");
    auto finished = http_get(git.url("/v2/project"), run_token("1002"));
    CHECK(finished.status == 401);
    CHECK(error_of(finished) ==
          "GitHub job is not in progress (token: \"" + run_token("1002") + "\")");

    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    const int runs_before = git.standin().count("workflow_run");
    // Many requests at once, as a CLI run makes them: GitHub is asked once.
    std::atomic<int> accepted{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 8; ++i) {
        clients.emplace_back([&] {
            for (int j = 0; j < 5; ++j) {
                auto project = http_get(git.url("/v2/project"), token);
                if (project.status == 200 && project.json()["name"] == "default") {
                    ++accepted;
                }
            }
        });
    }
    for (auto& client : clients) {
        client.join();
    }
    CHECK(accepted == 40);
    CHECK(git.standin().count("workflow_run") == runs_before + 1);
    // The bearer is a project token for every endpoint that takes one, and nothing else.
    auto builds = http_get(git.url("/v2/projects/default/default/builds"), token);
    CHECK(builds.status == 200);
    auto personal = http_get(git.url("/v2/accounts/default/projects"), token);
    CHECK(personal.status == 401);

    // Switching tokenless off takes effect at once, cached or not.
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "false"});
    auto switched_off = http_get(git.url("/v2/project"), token);
    CHECK(switched_off.status == 403);
    // Unlinking the repository forgets the verification.
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    git.admin({"project", "unlink", "--project", "default/default"});
    auto unlinked_again = http_get(git.url("/v2/project"), token);
    CHECK(unlinked_again.status == 401);
    CHECK(error_of(unlinked_again) == not_found);
}

TEST_CASE("GitLab CI keyless upload: job token verified with GET /job, then exchanged") {
    GitServer git;
    const std::string job_token = "glcbt-64_secret-job-token";
    git.standin().set_data({{"gitlab",
                             {{"token", "glpat-standin"},
                              {"projects", {{"group/app", 501}, {"group/other", 502}}},
                              {"jobs",
                               {{job_token,
                                 {{"id", 9},
                                  {"status", "running"},
                                  {"project_id", 501},
                                  {"sha", job_sha},
                                  {"ref", "main"}}},
                                {"finished-token",
                                 {{"id", 10},
                                  {"status", "success"},
                                  {"project_id", 501},
                                  {"sha", job_sha},
                                  {"ref", "main"}}},
                                {"other-project-token",
                                 {{"id", 11},
                                  {"status", "running"},
                                  {"project_id", 502},
                                  {"sha", job_sha},
                                  {"ref", "main"}}}}}}}});
    auto token_for = [](const std::string& job) {
        return gitlab_tokenless({{"gitlabProject", "group/app"}, {"jobToken", job}});
    };
    const auto token = token_for(job_token);
    auto exchange = [&](const std::string& bearer, const std::string& commit,
                        const std::string& branch) {
        return http_json("POST", git.url("/v2/auth/gitlab-ci/tokenless/exchange"),
                         exchange_body(bearer, commit, branch));
    };

    auto not_linked = http_get(git.url("/v2/project"), token);
    CHECK(not_linked.status == 401);
    CHECK(exchange(token, job_sha, "main").status == 401);
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/app"});

    auto invalid = http_get(git.url("/v2/project"), "tokenless-gitlab-eyJ4IjoxfQ==");
    CHECK(invalid.status == 401);
    CHECK(error_of(invalid) == "Invalid token (not a tokenless-gitlab- token)");
    auto unknown = http_get(git.url("/v2/project"), token_for("unknown-token"));
    CHECK(unknown.status == 401);
    CHECK(error_of(unknown) ==
          "GitLab did not accept the job token: the job is not running or the token is invalid.");
    auto other = http_get(git.url("/v2/project"), token_for("other-project-token"));
    CHECK(other.status == 401);
    CHECK(error_of(other) == "GitLab job does not belong to the linked GitLab project.");
    auto finished = http_get(git.url("/v2/project"), token_for("finished-token"));
    CHECK(finished.status == 401);
    CHECK(error_of(finished) == "GitLab job is not running.");
    auto disabled = http_get(git.url("/v2/project"), token);
    CHECK(disabled.status == 403);
    CHECK(exchange(token, job_sha, "main").status == 403);
    // No refusal repeats the token: it carries the job's CI_JOB_TOKEN.
    for (const auto* refused : {&unknown, &other, &finished, &disabled}) {
        CHECK(refused->body.find("secret-job-token") == std::string::npos);
    }

    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    auto direct = http_get(git.url("/v2/project"), token);
    CHECK(direct.status == 200);
    CHECK(direct.json()["name"] == "default");

    auto wrong_commit = exchange(token, bearer_other_sha, "main");
    CHECK(wrong_commit.status == 401);
    CHECK(error_of(wrong_commit) == "GitLab CI job does not match commit.");
    auto wrong_branch = exchange(token, job_sha, "feature");
    CHECK(wrong_branch.status == 401);
    CHECK(error_of(wrong_branch) == "GitLab CI job does not match branch.");
    auto exchanged = exchange(token, job_sha, "main");
    REQUIRE(exchanged.status == 200);
    const auto issued = exchanged.json()["token"].get<std::string>();
    // Exactly the 40 characters the Argos CLI accepts in ARGOS_TOKEN.
    CHECK(issued.size() == 40);
    CHECK(issued.rfind("argos_tmp_", 0) == 0);
    CHECK(http_get(git.url("/v2/project"), issued).status == 200);

    // GitLab not answering: 503 within the timeout.
    git.standin().update([](json& data) { data["gitlab"]["hang"] = true; });
    const auto started = std::chrono::steady_clock::now();
    auto down = exchange(token, job_sha, "main");
    CHECK(down.status == 503);
    CHECK(error_of(down) == "Unable to authenticate with GitLab. Please retry.");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(3500));
}

TEST_CASE("git admin commands: links, usage errors and refusals") {
    GitServer git;
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "bad repo",
               "--installation-id", "77"},
              2);
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "-3"},
              2);
    git.admin({"project", "link-github", "--project", "default/nope", "--repo", "acme/web",
               "--installation-id", "77"},
              1);
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project", "app"},
              2);
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/app", "--token-file", "/nonexistent/token"},
              1);
    git.admin({"project", "unlink", "--project", "default/default"}, 1);
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "yes"}, 2);

    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto out = git.admin({"project", "links", "--json"});
    const auto listed = json::parse(out.substr(out.find('{'), out.rfind('}') - out.find('{') + 1));
    CHECK(listed["links"] == json::array({{{"project", "default/default"},
                                           {"provider", "github"},
                                           {"repository", "acme/web"},
                                           {"installationId", 77},
                                           {"tokenlessAuthEnabled", false},
                                           {"githubActionsOidcEnabled", false},
                                           {"gitlabCiOidcEnabled", false},
                                           {"prCommentEnabled", true},
                                           {"summaryCheck", "auto"}}}));
    // Linking again replaces the link.
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/sub/app", "--gitlab-project-id", "501"});
    out = git.admin({"project", "links", "--json"});
    const auto replaced =
        json::parse(out.substr(out.find('{'), out.rfind('}') - out.find('{') + 1));
    CHECK(replaced["links"].size() == 1);
    CHECK(replaced["links"][0]["provider"] == "gitlab");
    CHECK(replaced["links"][0]["gitlabProjectId"] == 501);
    // The plugin's commands are listed in `loupe admin --help`.
    auto help = git.admin({"--help"});
    CHECK(help.find("project link-github --project A/P") != std::string::npos);
}

namespace {

json build_body(const std::string& commit, const std::string& branch, json extra = json::object()) {
    json body = {{"commit", commit}, {"branch", branch}, {"screenshotKeys", json::array()}};
    body.update(extra);
    return body;
}

json deployment_request(const std::string& commit, const std::string& branch) {
    const std::string page = "<p>hi</p>";
    return {{"commit", commit},
            {"branch", branch},
            {"files",
             {{{"path", "index.html"},
               {"hash", "8bc3e3c1d0a62f2ff2e2c35cd4316d02fa4c45e7b58c1b6db4e9d00b27f1d15c"},
               {"size", page.size()},
               {"contentType", "text/html"}}}}};
}

}  // namespace

TEST_CASE("tokenless GitHub bearer: bound to its run's commit and branch; forks stay off main") {
    GitServerOptions options;
    options.plugins = {"auth", "builds", "deployments", "git"};
    GitServer git(options);
    json data = bearer_github_data();
    // A run of the repository on `feature`; a fork's pull request from its own `main`; a fork's
    // pull request from `feature`. Their run ids are public on a public repository.
    data["runs"]["acme/web/2001"] = {
        {"status", "in_progress"}, {"head_sha", job_sha}, {"head_branch", "feature"}};
    data["runs"]["acme/web/2002"] = {{"status", "in_progress"},
                                     {"head_sha", job_sha},
                                     {"head_branch", "main"},
                                     {"head_repository", {{"full_name", "mallory/web"}}}};
    data["runs"]["acme/web/2003"] = {{"status", "in_progress"},
                                     {"head_sha", job_sha},
                                     {"head_branch", "feature"},
                                     {"head_repository", {{"full_name", "mallory/web"}}}};
    git.standin().set_data(data);
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    const auto builds = git.url("/v2/builds");
    const auto own = run_token("2001");

    // Another commit, or another branch, than the run's: refused.
    auto other_commit = http_json("POST", builds, build_body(bearer_other_sha, "feature"), own);
    CHECK(other_commit.status == 401);
    CHECK(error_of(other_commit) == "Token is bound to a different commit than the one provided.");
    auto other_branch = http_json("POST", builds, build_body(job_sha, "main"), own);
    CHECK(other_branch.status == 401);
    CHECK(error_of(other_branch) == "Token is bound to a different branch than the one provided.");
    // The run's own; and a pull request run's merge commit, named with its head commit.
    CHECK(http_json("POST", builds, build_body(job_sha, "feature"), own).status == 201);
    CHECK(http_json("POST", builds,
                    build_body(bearer_other_sha, "feature", {{"prHeadCommit", job_sha}}), own)
              .status == 201);

    // A fork's run naming its own `main`: no build of the default branch, no production.
    const auto fork_main = run_token("2002");
    auto claimed = http_json("POST", builds, build_body(job_sha, "main"), fork_main);
    CHECK(claimed.status == 403);
    CHECK(error_of(claimed).starts_with("A CI run of a fork cannot send a build of main"));
    auto production = http_json("POST", git.url("/v2/deployments"),
                                deployment_request(job_sha, "main"), fork_main);
    CHECK(production.status == 403);
    CHECK(error_of(production).starts_with("A CI run of a fork cannot deploy to production"));
    auto deploy_other = http_json("POST", git.url("/v2/deployments"),
                                  deployment_request(bearer_other_sha, "main"), fork_main);
    CHECK(deploy_other.status == 401);

    // A fork's pull request on its branch goes through, marked: a baseline only once reviewed.
    const auto fork_feature = run_token("2003");
    auto preview = http_json("POST", builds, build_body(job_sha, "feature"), fork_feature);
    REQUIRE(preview.status == 201);
    CHECK(http_json("POST", git.url("/v2/deployments"), deployment_request(job_sha, "feature"),
                    fork_feature)
              .status == 201);
    auto db = open_server_database(git.server());
    CHECK(query_number(*db, "SELECT untrusted_head FROM builds WHERE id = " +
                                preview.json()["build"]["id"].get<std::string>()) == 1);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM builds WHERE untrusted_head = 1") == 1);

    // The exchange hands out a short-lived token bound the same way.
    auto exchanged = http_json("POST", git.url("/v2/auth/github-actions/tokenless/exchange"),
                               exchange_body(fork_main, job_sha, "main"));
    REQUIRE(exchanged.status == 200);
    const std::string short_lived = exchanged.json()["token"];
    CHECK(http_json("POST", builds, build_body(job_sha, "main"), short_lived).status == 403);
    CHECK(http_json("POST", builds, build_body(job_sha, "feature"), short_lived).status == 401);
    CHECK(http_json("POST", builds, build_body(bearer_other_sha, "main"), short_lived).status ==
          401);
}

TEST_CASE("GitLab CI bearer: bound to its job's commit and branch; merge requests stay off main") {
    GitServer git;
    git.standin().set_data({{"gitlab",
                             {{"token", "glpat-standin"},
                              {"projects", {{"group/app", 501}}},
                              {"jobs",
                               {{"branch-job",
                                 {{"id", 9},
                                  {"status", "running"},
                                  {"project_id", 501},
                                  {"sha", job_sha},
                                  {"ref", "feature"}}},
                                {"mr-job",
                                 {{"id", 10},
                                  {"status", "running"},
                                  {"project_id", 501},
                                  {"sha", job_sha},
                                  {"ref", "refs/merge-requests/4/head"}}}}}}}});
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/app"});
    git.admin({"project", "tokenless-auth", "--project", "default/default", "--enabled", "true"});
    const auto builds = git.url("/v2/builds");
    const auto branch_job =
        gitlab_tokenless({{"gitlabProject", "group/app"}, {"jobToken", "branch-job"}});
    const auto mr_job = gitlab_tokenless({{"gitlabProject", "group/app"}, {"jobToken", "mr-job"}});
    CHECK(http_json("POST", builds, build_body(job_sha, "main"), branch_job).status == 401);
    CHECK(http_json("POST", builds, build_body(job_sha, "feature"), branch_job).status == 201);
    CHECK(http_json("POST", builds, build_body(job_sha, "main"), mr_job).status == 403);
    CHECK(http_json("POST", builds, build_body(job_sha, "feature"), mr_job).status == 201);
}
