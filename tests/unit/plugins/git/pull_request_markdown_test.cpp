// The pull request comment and summary check as written from a head commit's builds.
#include "pull_request/pull_request_markdown.hpp"

#include <doctest/doctest.h>

using namespace loupe::git;
using nlohmann::json;

namespace {

// 2026-03-04 15:07 UTC.
constexpr int64_t afternoon_ms = 1772636820000;

ListedBuild listed(const std::string& project, const std::string& name, const std::string& status,
                   json stats = nullptr) {
    return ListedBuild{project,
                       name,
                       status,
                       "check",
                       std::move(stats),
                       false,
                       "https://loupe.example/acme/" + project + "/builds/1",
                       afternoon_ms};
}

}  // namespace

TEST_CASE("pull request comment: one sorted row per build, project names when several") {
    const auto one = pull_request_comment(
        {listed("web", "default", "changes-detected", {{"changed", 2}, {"added", 1}})});
    CHECK(one ==
          "**The latest updates on your projects.**\n\n"
          "| Build | Status | Details | Updated (UTC) |\n"
          "| :---- | :----- | :------ | :------------ |\n"
          "| **default** ([Inspect](https://loupe.example/acme/web/builds/1)) | "
          "\u26A0\uFE0F Changes detected ([Review](https://loupe.example/acme/web/builds/1)) "
          "| 2 changed, 1 added | Mar 4, 2026, 3:07 PM |");

    const auto two = pull_request_comment(
        {listed("web", "default", "accepted"), listed("app", "default", "progress")});
    const auto app = two.find("| **app/default**");
    const auto web = two.find("| **web/default**");
    REQUIRE(app != std::string::npos);
    REQUIRE(web != std::string::npos);
    CHECK(app < web);
    CHECK(two.find("\U0001F44D Approved | - |") != std::string::npos);
    CHECK(two.find("\U0001F69C Diffing screenshots") != std::string::npos);
    CHECK(pull_request_comment({}) == "**The latest updates on your projects.**");
    // A pipe or a line break in a build name stays inside its cell.
    CHECK(pull_request_comment({listed("web", "a|b\nc", "no-changes")}).find("| **a\\|b c** (") !=
          std::string::npos);
}

TEST_CASE("pull request comment: labels by type, changes text, UTC times") {
    auto reference = listed("web", "default", "changes-detected");
    reference.type = "reference";
    CHECK(build_label(reference) == "\u2705 Auto-approved build");
    CHECK(pull_request_comment({reference}).find("[Review]") == std::string::npos);
    CHECK(changes_text({{"changed", 1}, {"removed", 3}, {"failure", 2}, {"ignored", 1}}, false) ==
          "1 changed, 3 removed, 2 failures, 1 ignored");
    CHECK(changes_text({{"removed", 3}, {"failure", 1}}, true) == "1 failure");
    CHECK(updated_text(0) == "Jan 1, 1970, 12:00 AM");
    CHECK(updated_text(afternoon_ms - int64_t{15} * 3'600'000) == "Mar 4, 2026, 12:07 AM");
}

TEST_CASE("summary check: pending first, then a failure, then changes waiting for review") {
    CHECK(summary_check_state({listed("w", "a", "pending"), listed("w", "b", "progress")}).status ==
          "queued");
    CHECK(
        summary_check_state({listed("w", "a", "no-changes"), listed("w", "b", "progress")}).title ==
        "Builds in progress...");
    const auto failed =
        summary_check_state({listed("w", "a", "error"), listed("w", "b", "changes-detected")});
    CHECK(failed.status == "completed");
    CHECK(failed.conclusion == "failure");
    const auto waiting =
        summary_check_state({listed("w", "a", "accepted"), listed("w", "b", "changes-detected")});
    CHECK(waiting.conclusion == "action_required");
    CHECK(waiting.title == "Diff detected");
    const auto accepted =
        summary_check_state({listed("w", "a", "accepted"), listed("w", "b", "no-changes")});
    CHECK(accepted.conclusion == "success");
    CHECK(accepted.title == "Diff accepted");
    CHECK(accepted.summary.find("| **a** (") != std::string::npos);
}
