// `loupe serve` runs the jobs its plugins enqueue, through the plugin SDK (fixture "jobs").
#include <doctest/doctest.h>

#include "support/http_client.hpp"
#include "support/server_process.hpp"
#include "unit/core/jobs/fixture_jobs_server.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

using test::wait_until;

std::vector<std::string> runs(const test::ServerProcess& server, const std::string& id) {
    const auto response = test::http_get(server.base_url() + "/fixture/jobs/" + id + "/runs");
    REQUIRE(response.status == 200);
    return response.json()["runs"].get<std::vector<std::string>>();
}

TEST_CASE("loupe serve: the workers run a plugin's jobs, retry them and give up") {
    test::ServerOptions options = test::fixture_jobs_server_options();
    test::ServerProcess server(options);

    const auto ok = test::http_json("POST", server.base_url() + "/fixture/jobs", {{"note", "a"}});
    REQUIRE(ok.status == 201);
    const std::string ok_id = std::to_string(ok.json()["id"].get<int64_t>());
    const auto failing = test::http_json("POST", server.base_url() + "/fixture/jobs",
                                         {{"fail", true}, {"maxAttempts", 2}});
    REQUIRE(failing.status == 201);
    const std::string failing_id = std::to_string(failing.json()["id"].get<int64_t>());

    CHECK(wait_until([&] { return runs(server, ok_id).size() == 1; }));
    CHECK(runs(server, ok_id) == std::vector<std::string>{"1 ran"});
    CHECK(wait_until([&] { return runs(server, failing_id).size() == 3; }));
    CHECK(runs(server, failing_id) ==
          std::vector<std::string>{"1 failed", "2 failed", "2 gave up: asked to fail"});

    std::string out;
    REQUIRE(server.run_cli(
                {"--set", "log.level=warn", "jobs", "list", "--status", "failed", "--json"}, out) ==
            0);
    const Json failed = Json::parse(out);
    REQUIRE(failed["jobs"].size() == 1);
    CHECK(failed["jobs"][0]["id"] == failing_id);
    CHECK(failed["jobs"][0]["lastError"] == "asked to fail");
}

}  // namespace
}  // namespace loupe
