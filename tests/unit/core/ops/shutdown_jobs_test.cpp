// SIGTERM and the job workers: a job that finishes within jobs.drain_timeout_ms is recorded
// done; one that does not is handed back to the queue (its attempt not counted) and the next
// start claims it at once, long before its lease would have run out. The job figures of
// GET /metrics follow the runs, failures and the hand-back.
#include <doctest/doctest.h>
#include <signal.h>

#include "support/http_client.hpp"
#include "support/process_exit.hpp"
#include "support/prometheus_text.hpp"
#include "support/server_process.hpp"
#include "unit/core/jobs/fixture_jobs_server.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

using test::wait_until;

std::vector<std::string> runs(const test::ServerProcess& server, int64_t id) {
    const auto response =
        test::http_get(server.base_url() + "/fixture/jobs/" + std::to_string(id) + "/runs");
    REQUIRE(response.status == 200);
    return response.json()["runs"].get<std::vector<std::string>>();
}

int64_t enqueue(const test::ServerProcess& server, const Json& payload) {
    const auto created = test::http_json("POST", server.base_url() + "/fixture/jobs", payload);
    REQUIRE(created.status == 201);
    return created.json()["id"].get<int64_t>();
}

test::PromText scrape(const test::ServerProcess& server) {
    const auto response = test::http_get(server.base_url() + "/metrics");
    REQUIRE(response.status == 200);
    return test::PromText::parse(response.body);
}

/// The job as `loupe jobs list --status STATUS` shows it.
Json job_row(const test::ServerProcess& server, int64_t id, const std::string& status) {
    std::string out;
    REQUIRE(server.run_cli(
                {"--set", "log.level=warn", "jobs", "list", "--status", status, "--json"}, out) ==
            0);
    const Json listed = Json::parse(out);
    for (const auto& job : listed["jobs"]) {
        if (job["id"] == std::to_string(id)) {
            return job;
        }
    }
    FAIL("job " << id << " is not " << status << ": " << out);
    return {};
}

TEST_CASE("SIGTERM: running jobs finish or go back to the queue, and the next start runs them") {
    test::ServerOptions options = test::fixture_jobs_server_options();
    // A lease far longer than the test: only a hand-back lets the next start claim at once.
    options.settings["jobs.lease_ms"] = "120000";
    options.settings["jobs.drain_timeout_ms"] = "1500";
    test::ServerProcess server(options);

    // Failures first, for the failure figures.
    const int64_t failing = enqueue(server, {{"fail", true}, {"maxAttempts", 2}});
    REQUIRE(wait_until([&] { return runs(server, failing).size() == 3; }));
    const auto failed = scrape(server);
    CHECK(failed.value("loupe_job_failures_total", {{"kind", "fixture.record"}}) == 2);
    CHECK(failed.value("loupe_jobs_given_up_total", {{"kind", "fixture.record"}}) == 1);
    CHECK(failed.value("loupe_jobs_succeeded_total", {{"kind", "fixture.record"}}) == 0);

    const int64_t quick = enqueue(server, {{"sleepMs", 400}});
    const int64_t slow = enqueue(server, {{"sleepMs", 30'000}});
    REQUIRE(wait_until(
        [&] { return runs(server, quick).size() == 1 && runs(server, slow).size() == 1; }));
    const auto busy = scrape(server);
    CHECK(busy.value("loupe_jobs_running", {{"kind", "fixture.record"}}) == 2);
    CHECK(busy.value("loupe_jobs_queued", {{"kind", "fixture.record"}}) == 0);

    const int pid = test::served_pid(server.output());
    const auto signalled = std::chrono::steady_clock::now();
    REQUIRE(::kill(pid, SIGTERM) == 0);
    const auto exit_code = test::wait_for_exit(pid, std::chrono::seconds(15));
    REQUIRE(exit_code.has_value());
    CHECK(*exit_code == 0);
    // Bounded by the drain timeout, not by the 30 s job.
    CHECK(std::chrono::steady_clock::now() - signalled < std::chrono::seconds(10));
    const std::string log = server.output();
    CHECK(log.find("event=job.released") != std::string::npos);

    // The quick job finished during the drain; the slow one is queued again, attempt uncounted.
    CHECK(job_row(server, slow, "queued")["attempts"] == 0);
    CHECK(job_row(server, quick, "done")["attempts"] == 1);

    const auto restarted = std::chrono::steady_clock::now();
    server.restart();
    CHECK(runs(server, quick) == std::vector<std::string>{"1 started", "1 ran"});
    REQUIRE(wait_until([&] { return runs(server, slow).size() == 2; }));
    CHECK(std::chrono::steady_clock::now() - restarted < std::chrono::seconds(20));
    CHECK(runs(server, slow) == std::vector<std::string>{"1 started", "1 started"});
    const auto again = scrape(server);
    CHECK(again.value("loupe_jobs_running", {{"kind", "fixture.record"}}) == 1);
    // Another stop hands it back once more (to this start's counter).
    const int second_pid = test::served_pid(server.output());
    REQUIRE(::kill(second_pid, SIGTERM) == 0);
    REQUIRE(test::wait_for_exit(second_pid, std::chrono::seconds(15)) == 0);
    CHECK(job_row(server, slow, "queued")["attempts"] == 0);
}

}  // namespace
}  // namespace loupe
