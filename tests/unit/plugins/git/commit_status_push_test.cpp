// End to end: builds of a linked project push their commit status to the GitHub stand-in as
// they change, through durable jobs; a failing provider never affects the build.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "git_fixture.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

json github_data() {
    return {{"installations", {{"77", {{"mode", "ok"}, {"repositories", {"acme/web"}}}}}}};
}

/// The statuses pushed for `commit`, once there are `count` of them (30 s at most).
json statuses_for(GitServer& git, const std::string& commit, std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        json found = json::array();
        for (const auto& status : git.standin().statuses()) {
            if (status["sha"] == commit) {
                found.push_back(status);
            }
        }
        if (found.size() >= count || std::chrono::steady_clock::now() > deadline) {
            return found;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

/// The statuses pushed for `commit` once the last one has `state` (30 s at most).
json statuses_ending_in(GitServer& git, const std::string& commit, const std::string& state) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        auto found = statuses_for(git, commit, 1);
        if ((!found.empty() && found.back()["state"] == state) ||
            std::chrono::steady_clock::now() > deadline) {
            return found;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

json states(const json& statuses) {
    json out = json::array();
    for (const auto& status : statuses) {
        out.push_back({status["state"], status["description"]});
    }
    return out;
}

json jobs_list(GitServer& git, const std::vector<std::string>& filters) {
    std::vector<std::string> args{"jobs", "list", "--kind", "git.commit_status", "--json"};
    args.insert(args.end(), filters.begin(), filters.end());
    std::string out;
    REQUIRE(git.server().run_cli(args, out) == 0);
    return json::parse(out.substr(out.find('{'), out.rfind('}') - out.find('{') + 1));
}

}  // namespace

TEST_CASE("commit statuses: pending, then changes-detected, then accepted reach GitHub") {
    GitServer git({.settings = {{"plugins.enabled", "auth,builds,reviews,git"}}});
    git.standin().set_data(github_data());
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto& server = git.server();

    const auto reference = push_shots(server, {{"home", png_blob("home")}},
                                      {{"commit", sha('1')}, {"branch", "main"}});
    wait_concluded(server, reference["number"].get<int64_t>());
    const auto check = push_shots(server, {{"home", png_blob("home", Paint{4, 4, 12, 12})}},
                                  {{"commit", sha('2')}, {"branch", "feature"}});
    const auto number = check["number"].get<int64_t>();
    const auto concluded = wait_concluded(server, number);
    REQUIRE(concluded["status"] == "changes-detected");

    auto pushed = statuses_for(git, sha('2'), 2);
    REQUIRE(pushed.size() == 2);
    // The first push reads the build when its job runs: queued, or already being diffed.
    CHECK(pushed[0]["state"] == "pending");
    CHECK((pushed[0]["description"] == "Build is queued" ||
           pushed[0]["description"] == "Build in progress..."));
    CHECK(states(pushed)[1] == json({"failure", "1 changed \u2014 waiting for your decision"}));
    for (const auto& status : pushed) {
        CHECK(status["repository"] == "acme/web");
        CHECK(status["context"] == "argos");
        CHECK(status["target_url"] == concluded["url"]);
    }

    auto accepted = http_json("POST",
                              server.base_url() + "/v2/projects/default/default/builds/" +
                                  std::to_string(number) + "/reviews",
                              {{"event", "APPROVE"}}, server.personal_token());
    REQUIRE(accepted.status == 200);
    pushed = statuses_for(git, sha('2'), 3);
    REQUIRE(pushed.size() == 3);
    CHECK(states(pushed)[2] == json({"success", "1 changed \u2014 approved"}));
    CHECK(get_build(server, number)["status"] == "accepted");

    // The reference build on main got its own statuses (the first push may already see it
    // concluded), ending in success.
    const auto main_statuses = statuses_ending_in(git, sha('1'), "success");
    REQUIRE_FALSE(main_statuses.empty());
    CHECK(main_statuses.back()["state"] == "success");
    // Every push job finished; none is left failed.
    CHECK(jobs_list(git, {"--status", "failed"})["jobs"].empty());
}

TEST_CASE("commit statuses: a failing provider is retried, then the job fails visibly") {
    GitServer git({.settings = {{"plugins.git.status_push_attempts", "2"}}});
    git.standin().set_data(
        {{"installations", {{"77", {{"mode", "ok"}, {"repositories", {"acme/web"}}}}}},
         {"statusFailures", 1000},
         {"statusDelayMs", 300}});
    git.admin({"project", "link-github", "--project", "default/default", "--repo", "acme/web",
               "--installation-id", "77"});
    auto& server = git.server();

    const auto build = push_shots(server, {{"home", png_blob("home")}},
                                  {{"commit", sha('3')}, {"branch", "main"}});
    // The build is processed and concluded as if no provider existed.
    const auto concluded = wait_concluded(server, build["number"].get<int64_t>());
    CHECK(concluded["status"] != "error");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    json failed;
    do {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        failed = jobs_list(git, {"--status", "failed"})["jobs"];
    } while (failed.empty() && std::chrono::steady_clock::now() < deadline);
    REQUIRE_FALSE(failed.empty());
    CHECK(failed[0]["attempts"] == 2);
    CHECK(failed[0]["lastError"].get<std::string>().find("500") != std::string::npos);
    CHECK(git.standin().statuses().empty());
    CHECK(git.standin().count("commit_status") >= 2);
}
