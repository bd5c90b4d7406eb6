// GET /metrics of a real `loupe serve`, scraped before, during and after real uploads through
// the API, and read back by a strict parser of the text format: the request, upload, job, diff
// and build figures move by what the uploads did. The token and the switch that removes it.
#include <doctest/doctest.h>

#include <set>

#include "support/prometheus_text.hpp"
#include "unit/core/jobs/job_fixture.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const std::string metrics_token = "scrape-me-9f3c1e";

PromText scrape(const ServerProcess& server) {
    const auto response = http_get(server.base_url() + "/metrics", metrics_token);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    CHECK(response.header("content-type") == "text/plain; version=0.0.4; charset=utf-8");
    try {
        return PromText::parse(response.body);
    } catch (const std::exception& error) {
        FAIL(error.what() << "\n" << response.body);
        throw;
    }
}

double delta(const PromText& after, const PromText& before, const std::string& name,
             const std::map<std::string, std::string>& labels = {}) {
    return after.sum(name, labels) - before.sum(name, labels);
}

std::vector<Shot> page_shots(const std::string& prefix) {
    std::vector<Shot> shots;
    for (int i = 0; i < 6; ++i) {
        shots.push_back({"page-" + std::to_string(i), png_blob(prefix + std::to_string(i))});
    }
    return shots;
}

}  // namespace

TEST_CASE("GET /metrics follows real uploads: requests, bytes, jobs, diffs, build processing") {
    ServerProcess server(ServerOptions{{"auth", "builds"},
                                       {{"metrics.token", metrics_token},
                                        {"jobs.workers", "2"},
                                        {"jobs.poll_ms", "50"},
                                        {"db.pool_size", "12"}},
                                       {}});
    CHECK(http_get(server.base_url() + "/metrics").status == 401);
    CHECK(http_get(server.base_url() + "/metrics", "wrong-token").status == 401);
    const PromText before = scrape(server);
    CHECK(before.value("loupe_db_pool_size") == 12);
    CHECK(before.value("loupe_build_info") == 1);
    for (const char* kind : {"build.process", "diff.compute"}) {
        CHECK(before.value("loupe_jobs_queued", {{"kind", kind}}) == 0);
        CHECK(before.value("loupe_jobs_running", {{"kind", kind}}) == 0);
        CHECK(before.value("loupe_jobs_oldest_queued_age_seconds", {{"kind", kind}}) == 0);
    }

    // The reference build: every screenshot added, so no diff is computed.
    const auto reference = page_shots("page");
    const int64_t first =
        push_shots(server, reference, {{"commit", sha('a')}, {"branch", "main"}})["number"];
    const auto first_build = wait_concluded(server, first);
    REQUIRE(first_build["stats"]["added"] == reference.size());

    // The second build, scraped between its uploads and its finalization: 3 pages changed,
    // 2 re-encoded without a visible change, 1 identical.
    std::vector<Shot> shots = reference;
    for (int i = 0; i < 3; ++i) {
        shots[i].blob = png_blob("page" + std::to_string(i), Paint{4, 4, 12, 10});
    }
    for (int i = 3; i < 5; ++i) {
        shots[i].blob = png_blob("page" + std::to_string(i), std::nullopt, true);
    }
    json create{{"commit", sha('b')},
                {"branch", "main"},
                {"parentCommits", {sha('b'), sha('a')}},
                {"screenshotKeys", json::array()}};
    for (const auto& shot : shots) {
        create["screenshotKeys"].push_back(shot.blob.key);
    }
    const auto created = create_build(server, create);
    REQUIRE(created.status == 201);
    const json created_body = created.json();
    uint64_t second_bytes = 0;
    for (const auto& target : created_body["screenshots"]) {
        for (const auto& shot : shots) {
            if (shot.blob.key == target["key"]) {
                REQUIRE(upload(target["putUrl"], shot.blob.bytes) == 200);
                second_bytes += shot.blob.bytes.size();
            }
        }
    }
    CHECK(second_bytes > 0);
    const PromText during = scrape(server);
    CHECK(delta(during, before, "loupe_http_requests_total",
                {{"method", "POST"}, {"route", "/builds"}, {"status", "201"}}) == 2);
    CHECK(delta(during, before, "loupe_http_requests_total",
                {{"method", "PUT"}, {"route", "/uploads/{key}"}, {"status", "200"}}) ==
          static_cast<double>(reference.size() + created_body["screenshots"].size()));
    uint64_t first_bytes = 0;
    for (const auto& shot : reference) {
        first_bytes += shot.blob.bytes.size();
    }
    CHECK(delta(during, before, "loupe_upload_bytes_total") ==
          static_cast<double>(first_bytes + second_bytes));
    CHECK(during.value("loupe_http_requests_in_flight") == 1);  // this scrape

    json screenshots = json::array();
    for (const auto& shot : shots) {
        screenshots.push_back({{"key", shot.blob.key}, {"name", shot.name}});
    }
    const auto updated = http_json(
        "PUT", server.base_url() + "/v2/builds/" + created_body["build"]["id"].get<std::string>(),
        {{"screenshots", screenshots}}, server.project_token());
    REQUIRE(updated.status == 200);
    const int64_t second = updated.json()["build"]["number"];
    REQUIRE(wait_concluded(server, second)["status"] == "changes-detected");

    // The last job is marked done just after the build concluded.
    PromText after = scrape(server);
    CHECK(wait_until([&] {
        after = scrape(server);
        return after.sum("loupe_jobs_running") == 0;
    }));
    CHECK(delta(after, before, "loupe_http_requests_total",
                {{"method", "PUT"}, {"route", "/builds/{buildId}"}, {"status", "200"}}) == 2);
    CHECK(delta(after, before, "loupe_http_request_duration_seconds_count",
                {{"method", "PUT"}, {"route", "/builds/{buildId}"}}) == 2);
    CHECK(delta(after, before, "loupe_diffs_computed_total", {{"result", "changed"}}) == 3);
    CHECK(delta(after, before, "loupe_diffs_computed_total", {{"result", "unchanged"}}) == 2);
    CHECK(delta(after, before, "loupe_diffs_computed_total", {{"result", "failed"}}) == 0);
    CHECK(delta(after, before, "loupe_diff_duration_seconds_count") ==
          delta(after, before, "loupe_diffs_computed_total"));
    CHECK(delta(after, before, "loupe_build_processing_seconds_count") == 2);
    CHECK(after.value("loupe_build_processing_seconds_sum") > 0);
    CHECK(delta(after, before, "loupe_jobs_succeeded_total", {{"kind", "build.process"}}) == 2);
    CHECK(delta(after, before, "loupe_jobs_succeeded_total", {{"kind", "diff.compute"}}) ==
          delta(after, before, "loupe_diffs_computed_total"));
    CHECK(delta(after, before, "loupe_job_duration_seconds_count", {{"kind", "diff.compute"}}) ==
          delta(after, before, "loupe_diffs_computed_total"));
    CHECK(after.sum("loupe_job_failures_total") == 0);
    // The processing jobs are all done; the daily prune job waits for its time.
    CHECK(after.sum("loupe_jobs_queued", {{"kind", "build.process"}}) == 0);
    CHECK(after.sum("loupe_jobs_queued", {{"kind", "diff.compute"}}) == 0);
    CHECK(after.value("loupe_db_pool_waits_total") >= 0);
    CHECK(after.has("loupe_db_pool_wait_seconds_total"));
    // Never a raw path as a label.
    for (const auto& [_, family] : after.families) {
        for (const auto& sample : family.samples) {
            if (sample.labels.contains("route")) {
                CHECK(sample.labels.at("route").find(sha('b')) == std::string::npos);
                CHECK(sample.labels.at("route").find("/builds/1") == std::string::npos);
            }
        }
    }
}

TEST_CASE("metrics.enabled=false removes GET /metrics") {
    ServerProcess server(ServerOptions{{"auth"}, {{"metrics.enabled", "false"}}, {}});
    CHECK(http_get(server.base_url() + "/metrics").status == 404);
    CHECK(http_get(server.base_url() + "/healthz").status == 200);
}

TEST_CASE("without metrics.token, GET /metrics answers only this machine, not through a proxy") {
    ServerProcess server(ServerOptions{{"auth"}, {}, {}});
    const std::string url = server.base_url() + "/metrics";
    CHECK(http_get(url).status == 200);
    // A reverse proxy on this host relays the world's requests from a loopback address: its
    // forwarding header gives it away.
    for (const auto& [name, value] :
         std::map<std::string, std::string>{{"X-Forwarded-For", "203.0.113.7"},
                                            {"Forwarded", "for=203.0.113.7"},
                                            {"X-Real-IP", "203.0.113.7"}}) {
        const auto relayed = http(HttpCall{"GET", url, "", "", std::nullopt, {{name, value}}});
        CHECK(relayed.status == 403);
        CHECK(relayed.json()["error"] == "GET /metrics answers only this machine");
    }
    ServerProcess open(ServerOptions{{"auth"}, {{"metrics.allow_remote", "true"}}, {}});
    CHECK(http(HttpCall{"GET",
                        open.base_url() + "/metrics",
                        "",
                        "",
                        std::nullopt,
                        {{"X-Forwarded-For", "203.0.113.7"}}})
              .status == 200);
}
