// The commit status pushed for a build, from its Build resource.
#include "status/build_commit_status.hpp"

#include <doctest/doctest.h>

using namespace loupe::git;
using nlohmann::json;

namespace {

const std::string commit_sha = "0123456789abcdef0123456789abcdef01234567";

json resource(const std::string& status, const json& notification) {
    return {{"status", status},
            {"url", "https://loupe.example/default/web/builds/3"},
            {"notification", notification}};
}

json notification(const std::string& github, const std::string& gitlab,
                  const std::string& description, const std::string& context = "argos") {
    return {{"description", description},
            {"context", context},
            {"github", {{"state", github}}},
            {"gitlab", {{"state", gitlab}}},
            {"url", "https://loupe.example/default/web/builds/3"}};
}

}  // namespace

TEST_CASE("commit status: the notification's state for each provider") {
    const auto changes =
        resource("changes-detected",
                 notification("failure", "failed", "3 changed \u2014 waiting for your decision"));
    const auto github = build_commit_status(changes, commit_sha, "default", Provider::github, {});
    CHECK(github.sha == commit_sha);
    CHECK(github.state == "failure");
    CHECK(github.description == "3 changed \u2014 waiting for your decision");
    CHECK(github.context == "argos");
    CHECK(github.target_url == "https://loupe.example/default/web/builds/3");
    const auto gitlab = build_commit_status(changes, commit_sha, "default", Provider::gitlab, {});
    CHECK(gitlab.state == "failed");
}

TEST_CASE("commit status: a repository shared by projects gets the project in the context") {
    const auto named =
        resource("pending", notification("pending", "pending", "Build is queued", "argos/e2e"));
    CHECK(build_commit_status(named, commit_sha, "e2e", Provider::github, std::string("web"))
              .context == "argos/web/e2e");
    CHECK(build_commit_status(named, commit_sha, "e2e", Provider::github, {}).context ==
          "argos/e2e");
    const auto plain = resource("pending", notification("pending", "pending", "Build is queued"));
    CHECK(build_commit_status(plain, commit_sha, "default", Provider::gitlab, std::string("web"))
              .context == "argos/web");
}

TEST_CASE("commit status: builds without a notification get a final state") {
    const auto expired = resource("expired", nullptr);
    auto github = build_commit_status(expired, commit_sha, "default", Provider::github, {});
    CHECK(github.state == "error");
    CHECK(github.description == "Build expired");
    CHECK(github.context == "argos");
    CHECK(build_commit_status(expired, commit_sha, "default", Provider::gitlab, {}).state ==
          "canceled");
    const auto failed = resource("error", nullptr);
    CHECK(build_commit_status(failed, commit_sha, "nightly", Provider::gitlab, {}).state ==
          "failed");
    CHECK(build_commit_status(failed, commit_sha, "nightly", Provider::gitlab, {}).context ==
          "argos/nightly");
    CHECK(build_commit_status(failed, commit_sha, "nightly", Provider::github, {}).description ==
          "Build failed");
}

TEST_CASE("commit status: descriptions fit the provider's limit without splitting a character") {
    std::string long_text;
    for (int i = 0; i < 100; ++i) {
        long_text += "\u00e9";  // two bytes each
    }
    const auto status = resource("changes-detected", notification("failure", "failed", long_text));
    const auto github = build_commit_status(status, commit_sha, "default", Provider::github, {});
    CHECK(github.description.size() <= github_description_limit);
    CHECK(github.description.ends_with("\u2026"));
    CHECK(json(github.description).dump().size() > 2);  // still valid UTF-8 (dump would throw)
    const auto gitlab = build_commit_status(status, commit_sha, "default", Provider::gitlab, {});
    CHECK(gitlab.description == long_text);  // 200 bytes fit GitLab's 255
    CHECK(truncate_utf8("short", 140) == "short");
}
