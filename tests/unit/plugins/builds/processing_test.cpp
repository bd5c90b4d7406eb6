// Processing end to end on a real server (SQLite or PostgreSQL): baseline rules (README
// "Processing"), diffs and their review order, stats and conclusion, flakiness metrics.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <regex>

#include "processing_client.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

std::vector<std::string> statuses(const json& page) {
    std::vector<std::string> out;
    for (const auto& diff : page["results"]) {
        out.push_back(diff["status"].get<std::string>() + ":" + diff["name"].get<std::string>());
    }
    return out;
}

}  // namespace

TEST_CASE("a reference build, a check build against it and an identical re-run") {
    InProcessServer server;
    const std::vector<Shot> main_shots = {{"same-1", png_blob("same-1")},
                                          {"same-2", png_blob("same-2")},
                                          {"changed", png_blob("changed")},
                                          {"removed", png_blob("removed")}};
    auto reference =
        wait_concluded(server, number_of(push_shots(server, main_shots, body(sha('a'), "main"))));
    CHECK(reference["conclusion"] == "changes-detected");
    CHECK(reference["stats"]["added"] == 4);
    CHECK(reference["base"].is_null());
    CHECK(reference["baselineBuild"]["reason"] == "no-eligible-build");
    CHECK(reference["notification"]["description"] == "4 added, automatically approved");
    CHECK(reference["notification"]["github"]["state"] == "success");
    // Added screenshots need no diff job: their dimensions come from the files' headers.
    auto db = open_server_database(server);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE kind = 'diff.compute'") == 0);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM screenshots WHERE width = 64 AND height = 48") ==
          4);

    const std::vector<Shot> branch_shots = {
        {"same-1", png_blob("same-1")},
        {"same-2", png_blob("same-2")},
        {"changed", png_blob("changed", block)},
        {"added", png_blob("added")},
        {"story/child", png_blob("child"), {{"parentName", "same-1"}}}};
    const json git = {{"referenceCommit", sha('a')}, {"parentCommits", {sha('a')}}};
    auto check = wait_concluded(
        server, number_of(push_shots(server, branch_shots, body(sha('b'), "feature", git))));
    CHECK(check["conclusion"] == "changes-detected");
    CHECK(check["stats"] == json{{"added", 1},
                                 {"removed", 1},
                                 {"unchanged", 2},
                                 {"changed", 1},
                                 {"ignored", 0},
                                 {"failure", 0},
                                 {"retryFailure", 0},
                                 {"total", 5}});
    CHECK(check["base"] == json{{"sha", sha('a')}, {"branch", "main"}});
    CHECK(check["baselineBuild"]["number"] == number_of(reference));
    CHECK(check["baselineBuild"]["reason"] == "merge-base");
    CHECK(check["notification"]["description"] ==
          "1 changed, 1 added, 1 removed \u2014 waiting for your decision");
    CHECK(check["notification"]["github"]["state"] == "failure");

    auto review = list_diffs(server, number_of(check), "?needsReview=true");
    // The child screenshot (parentName) is added and reviewable, though stats do not count it.
    CHECK(statuses(review) == std::vector<std::string>{"changed:changed", "added:added",
                                                       "added:story/child", "removed:removed"});
    const auto& changed = review["results"][0];
    CHECK(changed["score"].get<double>() > 0);
    CHECK(changed["score"].get<double>() < 0.2);
    CHECK(changed["url"].get<std::string>().find("/blobs/") != std::string::npos);
    CHECK(changed["base"]["width"] == 64);
    CHECK(changed["head"]["height"] == 48);
    CHECK(changed["group"].is_null());
    CHECK(changed["test"]["name"] == "changed");
    // Argos's public ids: <PROJECT>-<sqid of the test>, then -v1<fingerprint hash> for a change.
    const std::string test_id = changed["test"]["id"];
    CHECK(std::regex_match(test_id, std::regex("DEFAULT-[0-9A-Z]{4,}")));
    CHECK(std::regex_match(changed["change"]["id"].get<std::string>(),
                           std::regex(test_id + "-v1[0-9a-f]{16}")));
    CHECK(changed["change"]["occurrences"] == 0);  // check builds do not feed the counters
    CHECK(review["results"][1]["head"]["width"] == 64);
    CHECK(review["results"][1]["head"]["height"] == 48);
    // Only the changed pair was compared by a job; same files and added ones were not.
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE kind = 'diff.compute'") == 1);
    CHECK(review["results"][2]["parentName"] == "same-1");
    auto mask = http_get(changed["url"].get<std::string>());
    CHECK(mask.status == 200);
    CHECK(mask.header("content-type") == "image/png");

    auto paged = list_diffs(server, number_of(check), "?perPage=2&page=3");
    CHECK(paged["pageInfo"] == json{{"total", 6}, {"page", 3}, {"perPage", 2}});
    CHECK(statuses(paged) == std::vector<std::string>{"unchanged:same-1", "unchanged:same-2"});

    auto rerun = wait_concluded(
        server, number_of(push_shots(server, main_shots, body(sha('c'), "feature", git))));
    CHECK(rerun["conclusion"] == "no-changes");
    CHECK(rerun["stats"]["unchanged"] == 4);
    CHECK(rerun["notification"]["description"] == "Everything's good!");
}

TEST_CASE("baseline rules: ancestors (first skipped), same commit, base branch, none") {
    InProcessServer server;
    const std::vector<Shot> shots = {{"home", png_blob("home")}};
    auto main_a =
        wait_concluded(server, number_of(push_shots(server, shots, body(sha('a'), "main"))));
    CHECK(main_a["baselineBuild"]["reason"] == "no-eligible-build");

    SUBCASE("the first commit of parentCommits with an eligible build wins") {
        auto build = wait_concluded(
            server,
            number_of(push_shots(
                server, shots,
                body(sha('d'), "feature", {{"parentCommits", {sha('d'), sha('c'), sha('a')}}}))));
        CHECK(build["baselineBuild"]["reason"] == "ancestor");
        CHECK(build["baselineBuild"]["number"] == number_of(main_a));
        CHECK(build["conclusion"] == "no-changes");
    }
    SUBCASE("the first element of parentCommits is the starting commit and is skipped") {
        auto build = wait_concluded(
            server,
            number_of(push_shots(server, shots,
                                 body(sha('a'), "feature", {{"parentCommits", {sha('a')}}}))));
        // Same commit, other branch: no same-commit fallback either.
        CHECK(build["baselineBuild"]["reason"] == "no-eligible-build");
        CHECK(build["conclusion"] == "changes-detected");
    }
    SUBCASE("two runs on the same commit and branch: the last resort") {
        auto first = wait_concluded(
            server,
            number_of(push_shots(server, shots,
                                 body(sha('e'), "feature", {{"parentCommits", {sha('e')}}}))));
        CHECK(first["baselineBuild"]["reason"] == "no-eligible-build");  // an orphan build
        auto second = wait_concluded(
            server,
            number_of(push_shots(server, shots,
                                 body(sha('e'), "feature", {{"parentCommits", {sha('e')}}}))));
        CHECK(second["baselineBuild"]["reason"] == "same-commit");
        CHECK(second["baselineBuild"]["number"] == number_of(first));
    }
    SUBCASE("no git history at all: the latest approved build of the base branch") {
        auto build =
            wait_concluded(server, number_of(push_shots(server, shots, body(sha('f'), "feature"))));
        CHECK(build["baselineBuild"]["reason"] == "base-branch");
        CHECK(build["baselineBuild"]["number"] == number_of(main_a));
    }
    SUBCASE("another build name never serves as baseline") {
        auto build = wait_concluded(
            server, number_of(push_shots(
                        server, shots,
                        body(sha('d'), "feature",
                             {{"name", "mobile"}, {"parentCommits", {sha('d'), sha('a')}}}))));
        CHECK(build["baselineBuild"]["reason"] == "no-eligible-build");
    }
    SUBCASE("monitoring builds: the latest accepted monitoring build, never a CI one") {
        const json monitoring = {{"mode", "monitoring"}};
        auto first = wait_concluded(
            server, number_of(push_shots(server, shots, body(sha('b'), "main", monitoring))));
        CHECK(first["baselineBuild"]["reason"] == "no-eligible-build");
        // Nobody accepted the first: the second has no baseline either.
        auto second =
            wait_concluded(server, number_of(push_shots(server, {{"home", png_blob("home", block)}},
                                                        body(sha('c'), "main", monitoring))));
        CHECK(second["baselineBuild"]["reason"] == "no-eligible-build");
        // Once a review accepted it (the state the reviews plugin records), the first is the
        // baseline; the unreviewed second is not.
        {
            auto db = open_server_database(server);
            const int64_t accepted = number_of(first);
            *db << "UPDATE builds SET review_state = 'accepted' WHERE number = :n",
                soci::use(accepted);
        }
        auto third = wait_concluded(
            server, number_of(push_shots(server, shots, body(sha('d'), "main", monitoring))));
        CHECK(third["baselineBuild"]["reason"] == "monitoring");
        CHECK(third["baselineBuild"]["number"] == number_of(first));
        CHECK(third["conclusion"] == "no-changes");
        // A CI build whose only built ancestor has monitoring builds finds no baseline there.
        auto ci = wait_concluded(
            server, number_of(push_shots(
                        server, shots,
                        body(sha('e'), "feature", {{"parentCommits", {sha('e'), sha('b')}}}))));
        CHECK(ci["baselineBuild"]["reason"] == "no-eligible-build");
    }
}

TEST_CASE("POST /baseline finds the approved build of the earliest listed commit") {
    InProcessServer server;
    const std::vector<Shot> shots = {{"home", png_blob("home")}};
    auto a = wait_concluded(server, number_of(push_shots(server, shots, body(sha('a'), "main"))));
    auto b = wait_concluded(server, number_of(push_shots(server, shots, body(sha('b'), "main"))));
    const auto url = server.base_url() + "/v2/baseline";
    auto found = http_json("POST", url, {{"commits", {sha('9'), sha('a'), sha('b')}}},
                           server.project_token());
    REQUIRE(found.status == 200);
    CHECK(found.json()["baseline"]["number"] == number_of(a));
    found = http_json("POST", url, {{"commits", {sha('b'), sha('a')}}}, server.project_token());
    CHECK(found.json()["baseline"]["number"] == number_of(b));
    auto none = http_json("POST", url, {{"commits", {sha('9')}}, {"name", "other"}},
                          server.project_token());
    CHECK(none.status == 200);
    CHECK(none.json()["baseline"].is_null());
    auto empty = http_json("POST", url, {{"commits", json::array()}}, server.project_token());
    CHECK(empty.status == 400);
    auto bad = http_json("POST", url, {{"commits", {"nope"}}}, server.project_token());
    CHECK(bad.status == 400);
    CHECK(bad.json()["details"][0]["message"].get<std::string>().find("commits.0") == 0);
    auto anonymous = http_json("POST", url, {{"commits", {sha('a')}}});
    CHECK(anonymous.status == 401);
}

TEST_CASE("skipped builds, subset builds and failed diffs") {
    InProcessServer server;
    SUBCASE("a skipped build concludes no-changes with zero stats") {
        auto created = create_build(
            server, body(sha('a'), "main", {{"skipped", true}, {"screenshotKeys", json::array()}}));
        REQUIRE_MESSAGE(created.status == 201, created.body);
        auto build = wait_concluded(server, number_of(created.json()["build"]));
        CHECK(build["conclusion"] == "no-changes");
        CHECK(build["stats"]["total"] == 0);
        CHECK(build["notification"]["description"] == "Build skipped");
    }
    SUBCASE("removed screenshots do not make a subset build change") {
        wait_concluded(server,
                       number_of(push_shots(server, {{"a", png_blob("a")}, {"b", png_blob("b")}},
                                            body(sha('a'), "main"))));
        auto subset = wait_concluded(
            server, number_of(push_shots(server, {{"a", png_blob("a")}},
                                         body(sha('b'), "feature",
                                              {{"referenceCommit", sha('a')}, {"subset", true}}))));
        CHECK(subset["stats"]["removed"] == 1);
        CHECK(subset["conclusion"] == "no-changes");
        CHECK(list_diffs(server, number_of(subset), "?needsReview=true")["pageInfo"]["total"] == 0);
    }
    SUBCASE("an undecodable image fails its diff and the build reads error") {
        wait_concluded(
            server, number_of(push_shots(server, {{"a", png_blob("a")}}, body(sha('a'), "main"))));
        Blob corrupt = make_blob("not really a png");
        auto build = wait_concluded(
            server,
            number_of(push_shots(server, {{"a", corrupt}},
                                 body(sha('b'), "feature", {{"referenceCommit", sha('a')}}))));
        CHECK(build["status"] == "error");
        CHECK(build["conclusion"].is_null());
        CHECK(build["notification"].is_null());
    }
}

TEST_CASE("identical changes share a group, and flakiness counts reference builds") {
    InProcessServer server;
    const json main = body(sha('a'), "main");
    wait_concluded(
        server,
        number_of(push_shots(
            server, {{"x", png_blob("x")}, {"y", png_blob("y")}, {"z", png_blob("z")}}, main)));
    // Two screenshots get the same block painted: same mask, same fingerprint, one group.
    auto second = wait_concluded(
        server,
        number_of(push_shots(server,
                             {{"x", png_blob("x", block)},
                              {"y", png_blob("y", block)},
                              {"z", png_blob("z", Paint{40, 30, 5, 5})}},
                             body(sha('b'), "main", {{"parentCommits", {sha('b'), sha('a')}}}))));
    CHECK(second["stats"]["changed"] == 3);
    auto diffs = list_diffs(server, number_of(second));
    std::map<std::string, json> by_name;
    for (const auto& diff : diffs["results"]) {
        by_name[diff["name"]] = diff;
    }
    CHECK(by_name["x"]["group"].is_string());
    CHECK(by_name["x"]["group"] == by_name["y"]["group"]);
    CHECK(by_name["z"]["group"].is_null());
    CHECK(by_name["x"]["group"].get<std::string>().rfind("v1:g16:d1:t0.002,0.02,0.08:", 0) == 0);
    // Grouped diffs come first among changed ones (group ascending, nulls last).
    CHECK(diffs["results"][2]["name"] == "z");
    // The first build's added screenshots were completed when it was processed (dimensions
    // from the files' headers) and count as one build each: total 2, changes 1, unique 1 (as in
    // Argos's own example).
    CHECK(by_name["x"]["test"]["metrics"] == json{{"total", 2},
                                                  {"changes", 1},
                                                  {"uniqueChanges", 1},
                                                  {"stability", 0.5},
                                                  {"consistency", 1.0},
                                                  {"flakiness", 0.25}});
    CHECK(by_name["x"]["change"]["occurrences"] == 1);

    // A third reference build whose x differs in bytes only: computed, no change.
    auto third = wait_concluded(
        server,
        number_of(push_shots(server,
                             {{"x", png_blob("x", block, true)},
                              {"y", png_blob("y", block)},
                              {"z", png_blob("z", Paint{40, 30, 5, 5})}},
                             body(sha('c'), "main", {{"parentCommits", {sha('c'), sha('b')}}}))));
    CHECK(third["conclusion"] == "no-changes");
    const auto third_diffs = list_diffs(server, number_of(third));
    for (const auto& diff : third_diffs["results"]) {
        if (diff["name"] == "x") {
            CHECK(diff["score"] == 0);
            // stability round2(1 - 1/3) = 0.67; flakiness round2(1 - 1.67/2) = 0.17.
            CHECK(diff["test"]["metrics"] == json{{"total", 3},
                                                  {"changes", 1},
                                                  {"uniqueChanges", 1},
                                                  {"stability", 0.67},
                                                  {"consistency", 1.0},
                                                  {"flakiness", 0.17}});
        }
    }
    auto bad_period = http_get(
        server.base_url() + "/v2/projects/default/default/builds/1/diffs?metricsPeriod=YEAR",
        server.personal_token());
    CHECK(bad_period.status == 400);
    auto bad_flag =
        http_get(server.base_url() + "/v2/projects/default/default/builds/1/diffs?needsReview=yes",
                 server.personal_token());
    CHECK(bad_flag.status == 400);
    CHECK(bad_flag.json()["details"][0]["message"] ==
          "needsReview is Invalid input: expected boolean, received string");
}

TEST_CASE("a change seen often enough is ignored automatically, and the diff list says so") {
    InProcessServer server;
    {
        auto db = open_server_database(server);
        *db << "INSERT INTO build_settings (project_id, ignore_enabled, auto_ignore_changes) "
               "SELECT id, 1, 2 FROM projects";
    }
    auto push_main = [&](const Blob& x, char commit, char parent) {
        json git = json::object();
        if (parent != 0) {
            git = {{"parentCommits", {sha(commit), sha(parent)}}};
        }
        return wait_concluded(server, number_of(push_shots(server, {{"x", x}, {"y", png_blob("y")}},
                                                           body(sha(commit), "main", git))));
    };
    push_main(png_blob("x"), 'a', 0);
    // The block appears, then goes: the same pixels differ both times, so the same fingerprint.
    auto appeared = push_main(png_blob("x", block), 'b', 'a');
    CHECK(appeared["stats"]["changed"] == 1);
    auto first = list_diffs(server, number_of(appeared))["results"][0];
    CHECK(first["name"] == "x");
    CHECK(first["status"] == "changed");
    CHECK(first["change"]["ignored"] == false);
    CHECK(first["change"]["occurrences"] == 1);

    auto reverted = push_main(png_blob("x"), 'c', 'b');
    CHECK(reverted["stats"]["changed"] == 0);
    CHECK(reverted["stats"]["ignored"] == 1);
    CHECK(reverted["conclusion"] == "no-changes");
    const auto reverted_diffs = list_diffs(server, number_of(reverted));
    std::map<std::string, json> by_name;
    for (const auto& diff : reverted_diffs["results"]) {
        by_name[diff["name"]] = diff;
    }
    const auto& second = by_name["x"];
    CHECK(second["status"] == "ignored");
    CHECK(second["change"]["id"] == first["change"]["id"]);
    CHECK(second["change"]["ignored"] == true);
    CHECK(second["change"]["occurrences"] == 2);
    CHECK(second["test"]["metrics"]["total"] == 3);  // added, then compared twice
    // The earlier diff now reports the change as ignored too: it is the same change.
    CHECK(list_diffs(server, number_of(appeared))["results"][0]["change"]["ignored"] == true);
    const auto& unchanged = by_name["y"];
    CHECK(unchanged["status"] == "unchanged");
    // Same file on both sides: never compared, so no counter is bumped; only the first
    // build, where y was added, counts.
    CHECK(unchanged["test"]["metrics"]["total"] == 1);
    CHECK(unchanged["change"].is_null());

    // A person unignores it: the change asks for review again, and auto-ignore, which would be
    // due again at the next occurrence, leaves it alone.
    const std::string change = second["change"]["id"];
    auto unignored = http_json(
        "POST", server.base_url() + "/v2/projects/default/default/changes/" + change + "/unignore",
        json::object(), server.personal_token());
    REQUIRE_MESSAGE(unignored.status == 200, unignored.body);
    CHECK(unignored.json()["ignored"] == false);
    auto again = push_main(png_blob("x", block), 'd', 'c');
    CHECK(again["stats"]["changed"] == 1);
    CHECK(again["stats"]["ignored"] == 0);
    CHECK(list_diffs(server, number_of(again))["results"][0]["change"]["ignored"] == false);
}

TEST_CASE("the review order: failures by their retry count, one order across pages, kept current") {
    InProcessServer server;
    wait_concluded(server,
                   number_of(push_shots(server, {{"a", png_blob("a")}, {"b", png_blob("b")}},
                                        body(sha('a'), "main"))));
    const auto retried = [](int retry) {
        return json{
            {"metadata",
             {{"test", {{"title", "t"}, {"titlePath", {"t"}}, {"retry", retry}, {"retries", 2}}},
              {"automationLibrary", {{"name", "@playwright/test"}, {"version", "1.49.0"}}},
              {"sdk", {{"name", "@argos-ci/playwright"}, {"version", "7.6.0"}}}}}};
    };
    auto check = wait_concluded(
        server, number_of(push_shots(server,
                                     {{"a", png_blob("a", Paint{4, 4, 30, 30})},
                                      {"b", png_blob("b", Paint{10, 8, 6, 6})},
                                      {"t (failed).png", png_blob("t"), retried(0)},
                                      {"u (failed).png", png_blob("u"), retried(2)}},
                                     body(sha('b'), "feature", {{"referenceCommit", sha('a')}}))));
    const int64_t number = number_of(check);
    // A failure screenshot of a test that will be retried is a "retry failure", listed after
    // the changes; the last attempt's is a failure, listed first. The retry count is in the
    // screenshot's metadata, so the order must read it.
    const auto first = statuses(list_diffs(server, number));
    CHECK(first == std::vector<std::string>{"failure:u (failed).png", "changed:a", "changed:b",
                                            "retryFailure:t (failed).png"});
    std::vector<std::string> paged;
    for (int page = 1; page <= 4; ++page) {
        const auto one = list_diffs(server, number, "?perPage=1&page=" + std::to_string(page));
        CHECK(one["pageInfo"]["total"] == 4);
        for (const auto& line : statuses(one)) {
            paged.push_back(line);
        }
    }
    CHECK(paged == first);
    CHECK(statuses(list_diffs(server, number, "?perPage=1&page=5")).empty());
    CHECK(statuses(list_diffs(server, number, "?needsReview=true")) ==
          std::vector<std::string>{"changed:a", "changed:b"});

    // A diff row that changes (here a's, marked ignored as a diff computed after its change
    // was ignored is) moves in the order at once: the order is kept per version of the rows.
    json a_diff;
    const auto listed = list_diffs(server, number);
    for (const auto& diff : listed["results"]) {
        if (diff["name"] == "a") {
            a_diff = diff;
        }
    }
    const int64_t a_id = std::stoll(a_diff["id"].get<std::string>());
    auto db = open_server_database(server);
    *db << "UPDATE screenshot_diffs SET ignored = 1 WHERE id = :id", soci::use(a_id);
    CHECK(statuses(list_diffs(server, number)) ==
          std::vector<std::string>{"failure:u (failed).png", "changed:b",
                                   "retryFailure:t (failed).png", "ignored:a"});
    CHECK(statuses(list_diffs(server, number, "?needsReview=true")) ==
          std::vector<std::string>{"changed:b"});
}
