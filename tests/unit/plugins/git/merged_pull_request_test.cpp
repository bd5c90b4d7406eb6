// Merged pull requests count as approval: a provider's webhook says a pull request was merged
// (GitHub: signed with the shared secret; GitLab: its token), and a check build of that pull
// request becomes an approved baseline, recorded as `baselineBuild.approval`, while the project
// keeps mergedPullRequestApproval on.
#include <doctest/doctest.h>

#include "git_fixture.hpp"
#include "loupe/crypto/digest.hpp"
#include "unit/plugins/builds/processing_client.hpp"
#include "webhooks/pull_request_webhook.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

constexpr const char* github_secret = "whsec-github-test";
constexpr const char* gitlab_secret = "whsec-gitlab-test";

json github_merge_event(const std::string& repository, int64_t number, bool merged = true) {
    return {{"action", "closed"},
            {"number", number},
            {"pull_request",
             {{"number", number}, {"merged", merged}, {"merged_at", "2026-11-02T10:00:00Z"}}},
            {"repository", {{"full_name", repository}}}};
}

json gitlab_merge_event(const std::string& path, int64_t iid) {
    return {{"object_kind", "merge_request"},
            {"project", {{"path_with_namespace", path}}},
            {"object_attributes", {{"iid", iid}, {"action", "merge"}, {"state", "merged"}}}};
}

HttpResult deliver_github(GitServer& git, const json& event, const std::string& secret,
                          const std::string& kind = "pull_request") {
    HttpCall call;
    call.method = "POST";
    call.url = git.url("/_loupe/webhooks/github");
    call.body = event.dump();
    call.headers = {
        {"X-GitHub-Event", kind},
        {"X-Hub-Signature-256", "sha256=" + loupe::crypto::hmac_sha256_hex(secret, call.body)}};
    return http(call);
}

HttpResult deliver_gitlab(GitServer& git, const json& event, const std::string& token) {
    HttpCall call;
    call.method = "POST";
    call.url = git.url("/_loupe/webhooks/gitlab");
    call.body = event.dump();
    call.headers = {{"X-Gitlab-Event", "Merge Request Hook"}, {"X-Gitlab-Token", token}};
    return http(call);
}

/// A build of pull request `pr` (branch `branch`) whose merge base is `merge_base`, targeting
/// `base_branch`.
json pr_build(char commit, const std::string& branch, int64_t pr, char merge_base,
              const std::string& base_branch) {
    return body(
        sha(commit), branch,
        {{"prNumber", pr}, {"referenceCommit", sha(merge_base)}, {"referenceBranch", base_branch}});
}

}  // namespace

TEST_CASE("a merged pull request's build becomes an approved baseline") {
    GitServer git({.settings = {{"github.webhook_secret", github_secret},
                                {"gitlab.webhook_secret", gitlab_secret}}});
    git.standin().set_data({{"installations", {{"77", {{"mode", "ok"}}}}}});
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "Acme/Web",
               "--installation-id", "77"});
    auto& server = git.server();
    const auto project_url = git.url("/v2/projects/default/default");
    CHECK(http_get(project_url, server.personal_token()).json()["mergedPullRequestApproval"] ==
          true);

    // A reference on main, then pull request 5 (targeting main) compared with it: a check
    // build nobody reviewed.
    const auto reference = push_shots(server, {{"home", png_blob("home")}}, body(sha('1'), "main"));
    CHECK(wait_concluded(server, number_of(reference))["baselineBuild"]["reason"] ==
          "no-eligible-build");
    const auto feature = push_shots(server, {{"home", png_blob("home", block)}},
                                    pr_build('a', "feature", 5, '1', "main"));
    const auto feature_done = wait_concluded(server, number_of(feature));
    CHECK(feature_done["baselineBuild"]["number"] == number_of(reference));
    CHECK(feature_done["baselineBuild"]["approval"] == "reference");

    // Pull request 6 targets `develop` (not auto-approved) from pull request 5's commit: that
    // unreviewed check build is no baseline.
    const auto before_merge =
        push_shots(server, {{"home", png_blob("home")}}, pr_build('b', "next", 6, 'a', "develop"));
    const auto before_done = wait_concluded(server, number_of(before_merge));
    CHECK(before_done["baselineBuild"]["reason"] == "no-eligible-build");
    CHECK(before_done["baselineBuild"]["number"].is_null());

    // Refused deliveries record nothing: a signature made with another secret, none at all.
    auto refused = deliver_github(git, github_merge_event("acme/web", 5), "another secret");
    CHECK(refused.status == 401);
    CHECK(refused.json()["error"] == "Invalid signature");
    HttpCall unsigned_call;
    unsigned_call.method = "POST";
    unsigned_call.url = git.url("/_loupe/webhooks/github");
    unsigned_call.body = github_merge_event("acme/web", 5).dump();
    unsigned_call.headers = {{"X-GitHub-Event", "pull_request"}};
    CHECK(http(unsigned_call).status == 401);
    // Not a merge, or not a pull request event: acknowledged and ignored.
    auto closed = deliver_github(git, github_merge_event("acme/web", 5, false), github_secret);
    CHECK(closed.status == 200);
    CHECK(closed.json()["ignored"] == true);
    CHECK(deliver_github(git, {{"zen", "hi"}}, github_secret, "ping").json()["ignored"] == true);
    CHECK(deliver_github(git, json::array(), github_secret).status == 400);

    const auto still_unmerged =
        push_shots(server, {{"home", png_blob("home")}}, pr_build('c', "next", 6, 'a', "develop"));
    CHECK(wait_concluded(server, number_of(still_unmerged))["baselineBuild"]["number"].is_null());

    // GitHub says pull request 5 was merged (repository names match without regard to case);
    // a second delivery of the same event changes nothing.
    auto merged = deliver_github(git, github_merge_event("acme/web", 5), github_secret);
    REQUIRE(merged.status == 200);
    CHECK(merged.json()["projects"] == 1);
    CHECK(deliver_github(git, github_merge_event("acme/web", 5), github_secret).status == 200);
    // A repository no project is linked to: read, nothing recorded.
    CHECK(deliver_github(git, github_merge_event("other/repo", 5), github_secret)
              .json()["projects"] == 0);

    const auto after_merge =
        push_shots(server, {{"home", png_blob("home")}}, pr_build('d', "next", 6, 'a', "develop"));
    const auto after_done = wait_concluded(server, number_of(after_merge));
    CHECK(after_done["baselineBuild"]["number"] == number_of(feature));
    CHECK(after_done["baselineBuild"]["reason"] == "merge-base");
    CHECK(after_done["baselineBuild"]["approval"] == "merged-pull-request");
    CHECK(after_done["status"] == "changes-detected");

    // The project turns the rule off: the merged pull request's build is no baseline again.
    auto off = http_json("PATCH", project_url, {{"mergedPullRequestApproval", false}},
                         server.personal_token());
    REQUIRE(off.status == 200);
    CHECK(off.json()["mergedPullRequestApproval"] == false);
    const auto rule_off =
        push_shots(server, {{"home", png_blob("home")}}, pr_build('e', "next", 6, 'a', "develop"));
    CHECK(wait_concluded(server, number_of(rule_off))["baselineBuild"]["number"].is_null());
    CHECK(http_json("PATCH", project_url, {{"mergedPullRequestApproval", "yes"}},
                    server.personal_token())
              .status == 400);
    http_json("PATCH", project_url, {{"mergedPullRequestApproval", true}}, server.personal_token());

    // GitLab: a merge request hook with the wrong token is refused; with it, recorded for the
    // project linked to the GitLab project.
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/app", "--gitlab-project-id", "501"});
    CHECK(deliver_gitlab(git, gitlab_merge_event("group/app", 7), "nope").status == 401);
    auto gitlab = deliver_gitlab(git, gitlab_merge_event("group/app", 7), gitlab_secret);
    REQUIRE(gitlab.status == 200);
    CHECK(gitlab.json()["projects"] == 1);
    const auto mr = push_shots(server, {{"home", png_blob("home", block)}},
                               pr_build('f', "mr-7", 7, '1', "main"));
    wait_concluded(server, number_of(mr));
    const auto after_mr =
        push_shots(server, {{"home", png_blob("home")}}, pr_build('0', "next", 8, 'f', "develop"));
    const auto after_mr_done = wait_concluded(server, number_of(after_mr));
    CHECK(after_mr_done["baselineBuild"]["number"] == number_of(mr));
    CHECK(after_mr_done["baselineBuild"]["approval"] == "merged-pull-request");
}

TEST_CASE("a server without a webhook secret refuses every delivery") {
    GitServer git;
    auto result = deliver_github(git, github_merge_event("acme/web", 5), "");
    CHECK(result.status == 403);
    CHECK(result.json()["details"][0]["message"] ==
          "github.webhook_secret is not set on this server");
    CHECK(deliver_gitlab(git, gitlab_merge_event("group/app", 7), "").status == 403);
}

TEST_CASE("what a webhook delivery reports") {
    using loupe::git::github_merge_of;
    using loupe::git::gitlab_merge_of;
    const auto merge = github_merge_of("pull_request", github_merge_event("acme/web", 12), 1);
    REQUIRE(merge);
    CHECK(merge->repository == "acme/web");
    CHECK(merge->number == 12);
    CHECK(merge->merged_at == *loupe::parse_iso_time("2026-11-02T10:00:00Z"));
    CHECK_FALSE(github_merge_of("issues", github_merge_event("acme/web", 12), 1));
    CHECK_FALSE(github_merge_of("pull_request", github_merge_event("acme/web", 12, false), 1));
    auto reopened = github_merge_event("acme/web", 12);
    reopened["action"] = "reopened";
    CHECK_FALSE(github_merge_of("pull_request", reopened, 1));
    auto no_number = github_merge_event("acme/web", 12);
    no_number["pull_request"]["number"] = "12";
    CHECK_FALSE(github_merge_of("pull_request", no_number, 1));

    const auto gitlab = gitlab_merge_of(gitlab_merge_event("group/sub/app", 3), 99);
    REQUIRE(gitlab);
    CHECK(gitlab->repository == "group/sub/app");
    CHECK(gitlab->number == 3);
    CHECK(gitlab->merged_at == 99);  // no parseable time in the payload: the delivery's
    auto opened = gitlab_merge_event("group/app", 3);
    opened["object_attributes"]["action"] = "open";
    opened["object_attributes"]["state"] = "opened";
    CHECK_FALSE(gitlab_merge_of(opened, 1));
    CHECK_FALSE(gitlab_merge_of(json::array(), 1));

    // Opened pull requests: the repository's own branch only; GitLab's from the same project.
    json pull_request_opened = {
        {"action", "opened"},
        {"pull_request",
         {{"number", 9}, {"head", {{"ref", "feature"}, {"repo", {{"full_name", "Acme/Web"}}}}}}},
        {"repository", {{"full_name", "acme/web"}}}};
    const auto github_opened = loupe::git::github_opened_of("pull_request", pull_request_opened);
    REQUIRE(github_opened);
    CHECK(github_opened->number == 9);
    CHECK(github_opened->branch == "feature");
    pull_request_opened["pull_request"]["head"]["repo"]["full_name"] = "someone/web";
    CHECK_FALSE(loupe::git::github_opened_of("pull_request", pull_request_opened));
    json mr = {{"object_kind", "merge_request"},
               {"project", {{"path_with_namespace", "group/app"}}},
               {"object_attributes",
                {{"iid", 4},
                 {"action", "open"},
                 {"source_branch", "topic"},
                 {"source_project_id", 501},
                 {"target_project_id", 501}}}};
    const auto gitlab_opened = loupe::git::gitlab_opened_of(mr);
    REQUIRE(gitlab_opened);
    CHECK(gitlab_opened->branch == "topic");
    mr["object_attributes"]["source_project_id"] = 777;  // a fork
    CHECK_FALSE(loupe::git::gitlab_opened_of(mr));
    CHECK_FALSE(loupe::git::gitlab_opened_of(gitlab_merge_event("group/app", 3)));

    CHECK(loupe::git::github_signature_fits(
        "k", "body", "sha256=" + loupe::crypto::hmac_sha256_hex("k", "body")));
    CHECK_FALSE(loupe::git::github_signature_fits("k", "body", "sha256=00"));
    CHECK_FALSE(loupe::git::github_signature_fits("k", "body", ""));
}
