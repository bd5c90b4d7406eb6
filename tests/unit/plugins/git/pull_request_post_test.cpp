// End to end: builds naming a pull request keep one comment in it up to date (GitHub issue
// comment, GitLab merge request note) and, over several builds, a GitHub summary check, through
// durable jobs: a failed call is retried, a restart resumes, and each state is posted once.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "git_fixture.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

/// The stand-in's calls whose name starts with `call_prefix`, for pull request `number` when
/// given.
json posts_of(GitServer& git, const std::string& call_prefix, int64_t number = -1) {
    json found = json::array();
    for (const auto& post : git.standin().posts()) {
        if (post["call"].get<std::string>().starts_with(call_prefix) &&
            (number < 0 || post["number"] == number)) {
            found.push_back(post);
        }
    }
    return found;
}

/// The last check run call, or null.
json last_check_of(const json& posts) {
    json last;
    for (const auto& post : posts) {
        if (post["call"].get<std::string>().starts_with("check")) {
            last = post;
        }
    }
    return last;
}

/// Waits (30 s at most) until `done` holds for the stand-in's posts; returns them.
template <typename Done>
json wait_posts(GitServer& git, Done done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        auto posts = git.standin().posts();
        if (done(posts) || std::chrono::steady_clock::now() > deadline) {
            return posts;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

/// The body last sent for the comment or note with this id.
std::string last_body(const json& posts, int64_t id) {
    std::string body;
    for (const auto& post : posts) {
        if (post["id"] == id && post["body"].contains("body")) {
            body = post["body"]["body"].get<std::string>();
        }
    }
    return body;
}

bool has_text(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

int calls(const json& posts, const std::string& call) {
    int count = 0;
    for (const auto& post : posts) {
        count += post["call"] == call ? 1 : 0;
    }
    return count;
}

json pr_body(char commit, int64_t pr_number, const std::string& name = "default") {
    return body(sha(commit), "feature",
                {{"prNumber", pr_number}, {"prHeadCommit", sha(commit)}, {"name", name}});
}

}  // namespace

TEST_CASE("pull request comment and summary check: posted once, edited in place, resumed") {
    GitServer git({.settings = {{"plugins.enabled", "auth,builds,reviews,git"},
                                {"jobs.retry_base_ms", "200"},
                                {"jobs.retry_max_ms", "500"},
                                {"jobs.lease_ms", "5000"},
                                {"plugins.git.timeout_ms", "2000"},
                                {"plugins.git.status_push_attempts", "100"}},
                   .process = true});
    // The first comment, note or check run call fails: the job tries again.
    git.standin().set_data(
        {{"installations", {{"77", {{"mode", "ok"}, {"repositories", {"acme/web"}}}}}},
         {"postFailures", 1},
         {"gitlab", {{"token", "glpat-standin"}, {"projects", {{"group/app", 501}}}}}});
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto& server = git.server();
    const auto project_url = git.url("/v2/projects/default/default");

    // The Project resource shows the settings with Argos's defaults.
    auto project = http_get(project_url, server.personal_token()).json();
    CHECK(project["prCommentEnabled"] == true);
    CHECK(project["summaryCheck"] == "auto");

    const auto reference = push_shots(server, {{"home", png_blob("home")}}, body(sha('1'), "main"));
    wait_concluded(server, number_of(reference));
    const auto mobile_reference = push_shots(server, {{"home", png_blob("home")}},
                                             body(sha('1'), "main", {{"name", "mobile"}}));
    wait_concluded(server, number_of(mobile_reference));
    // A build of a branch without a pull request posts nothing.
    CHECK(git.standin().posts().empty());

    const auto check = push_shots(server, {{"home", png_blob("home", block)}}, pr_body('2', 12));
    const auto concluded = wait_concluded(server, number_of(check));
    REQUIRE(concluded["status"] == "changes-detected");
    const auto url = concluded["url"].get<std::string>();
    auto posts = wait_posts(git, [&](const json& all) {
        return calls(all, "comment_create") == 1 &&
               has_text(last_body(all, all[0]["id"]), "Changes detected");
    });
    REQUIRE(calls(posts, "comment_create") == 1);
    CHECK(git.standin().count("comment_create") == 2);  // the failed first try, then one more
    CHECK(posts[0]["repository"] == "acme/web");
    CHECK(posts[0]["number"] == 12);
    const auto comment_id = posts[0]["id"].get<int64_t>();
    auto comment = last_body(posts, comment_id);
    CHECK(comment.starts_with("**The latest updates on your projects.**"));
    CHECK(has_text(comment, "| **default** ([Inspect](" + url +
                                ")) | \u26A0\uFE0F Changes "
                                "detected ([Review](" +
                                url + ")) | 1 changed |"));
    // One build on the head commit: `auto` posts no summary check.
    CHECK(calls(posts, "check_create") == 0);

    // A second build name on the same head: the comment lists both, the summary check appears.
    const auto mobile =
        push_shots(server, {{"home", png_blob("home")}}, pr_body('2', 12, "mobile"));
    wait_concluded(server, number_of(mobile));
    posts = wait_posts(git, [&](const json& all) {
        return has_text(last_body(all, comment_id), "No changes detected") &&
               calls(all, "check_create") == 1;
    });
    comment = last_body(posts, comment_id);
    CHECK(has_text(comment, "**mobile**"));
    CHECK(has_text(comment, "\u2705 No changes detected"));
    REQUIRE(calls(posts, "check_create") == 1);
    CHECK(calls(posts, "comment_create") == 1);

    // The review shows in the comment and completes the summary check.
    REQUIRE(http_json("POST",
                      project_url + "/builds/" + std::to_string(number_of(check)) + "/reviews",
                      {{"event", "APPROVE"}}, server.personal_token())
                .status == 200);
    posts = wait_posts(git, [&](const json& all) {
        const auto last_check = last_check_of(all);
        return has_text(last_body(all, comment_id), "\U0001F44D Approved") &&
               last_check.is_object() && last_check["body"].value("conclusion", "") == "success";
    });
    CHECK(has_text(last_body(posts, comment_id), "\U0001F44D Approved"));
    const auto last_check = last_check_of(posts);
    REQUIRE(last_check.is_object());
    CHECK(last_check["body"]["name"] == "argos/summary");
    CHECK(last_check["body"]["status"] == "completed");
    CHECK(last_check["body"]["conclusion"] == "success");
    CHECK(last_check["body"]["output"]["title"] == "Diff accepted");
    CHECK(calls(posts, "check_create") == 1);
    CHECK(calls(posts, "comment_create") == 1);
    // Every state was sent once: no edit repeats the body before it.
    for (std::size_t i = 1; i < posts.size(); ++i) {
        if (posts[i]["id"] == posts[i - 1]["id"]) {
            CHECK(posts[i]["body"] != posts[i - 1]["body"]);
        }
    }

    // A restart between the change and its post resumes: the provider fails every call, the
    // server is killed with the posts still owed, and once it is back each is posted once.
    git.standin().update([](json& data) { data["postFailures"] = 1000000; });
    const auto third = push_shots(server, {{"home", png_blob("home")}}, pr_body('3', 12));
    const auto fourteen = push_shots(server, {{"home", png_blob("home")}}, pr_body('6', 14));
    wait_concluded(server, number_of(third));
    wait_concluded(server, number_of(fourteen));
    const int tried = git.standin().count("comment_create");
    wait_posts(git, [&](const json&) { return git.standin().count("comment_create") > tried; });
    git.process().kill();
    git.standin().update([](json& data) { data["postFailures"] = 0; });
    git.process().restart();
    posts = wait_posts(git, [&](const json& all) {
        return !posts_of(git, "comment_create", 14).empty() &&
               !has_text(last_body(all, comment_id), "**mobile**");
    });
    REQUIRE(posts_of(git, "comment_create", 14).size() == 1);
    CHECK(calls(posts, "comment_create") == 2);  // #12's, once, and #14's, once
    // #12's head moved to the third commit: only its build is listed.
    comment = last_body(posts, comment_id);
    CHECK_FALSE(has_text(comment, "**mobile**"));
    CHECK(has_text(comment, "| **default** ([Inspect]("));
    CHECK(has_text(comment, "\u2705 No changes detected"));

    // prCommentEnabled off (by the admin command): a new pull request gets no comment.
    git.admin({"project", "pr-comment", "--project", "default/default", "--enabled", "false"});
    git.admin({"project", "summary-check", "--project", "default/default", "--mode", "always"});
    git.admin({"project", "summary-check", "--project", "default/default", "--mode", "sometimes"},
              2);
    const auto restarted_url = git.url("/v2/projects/default/default");
    project = http_get(restarted_url, server.personal_token()).json();
    CHECK(project["prCommentEnabled"] == false);
    CHECK(project["summaryCheck"] == "always");
    const auto quiet = push_shots(server, {{"home", png_blob("home")}}, pr_body('4', 13));
    wait_concluded(server, number_of(quiet));
    posts = wait_posts(git, [&](const json& all) {
        return std::any_of(all.begin(), all.end(), [](const json& post) {
            return post["call"] == "check_create" && post["body"]["head_sha"] == sha('4');
        });
    });
    // `always`: one build is enough for a summary check; and no comment on #13.
    CHECK(calls(posts, "check_create") == 2);
    CHECK(posts_of(git, "comment_create", 13).empty());
    CHECK(calls(posts, "comment_create") == 2);
    git.admin({"project", "pr-comment", "--project", "default/default", "--enabled", "true"});
    git.admin({"project", "summary-check", "--project", "default/default", "--mode", "never"});

    // GitLab: the merge request gets one note, edited as its build concludes.
    git.admin({"project", "link-gitlab", "--project", "default/default", "--gitlab-project",
               "group/app", "--gitlab-project-id", "501"});
    const auto gitlab_build = push_shots(server, {{"home", png_blob("home")}}, pr_body('5', 7));
    wait_concluded(server, number_of(gitlab_build));
    posts = wait_posts(git, [&](const json& all) {
        for (const auto& post : all) {
            if (post["call"] == "note_create") {
                return has_text(last_body(all, post["id"]), "No changes detected");
            }
        }
        return false;
    });
    const auto notes = posts_of(git, "note");
    REQUIRE(calls(notes, "note_create") == 1);
    CHECK(notes[0]["repository"] == "group/app");
    CHECK(notes[0]["number"] == 7);
    CHECK(has_text(last_body(posts, notes[0]["id"]), "| **default** ([Inspect]("));
    // `never`: no summary check for this head.
    CHECK(calls(posts, "check_create") == 2);
}
