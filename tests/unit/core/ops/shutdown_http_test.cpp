// SIGTERM and the HTTP side: the listener closes at once, a request in progress (an upload
// whose body is still arriving) completes and is answered `Connection: close`, and a restart
// while a build's diffs are being computed loses nothing: no job is left leased, the next
// start picks the rest up at once and the build concludes with every diff counted once.
#include <doctest/doctest.h>
#include <signal.h>
#include <soci/soci.h>

#include "support/process_exit.hpp"
#include "unit/core/http/raw_connection.hpp"
#include "unit/core/jobs/job_fixture.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

bool accepts_connections(int port) {
    try {
        loupe::http_test::RawConnection probe(port);
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

/// "/uploads/...?..." of an absolute put URL.
std::string path_of(const std::string& url) {
    const auto start = url.find('/', url.find("://") + 3);
    return url.substr(start);
}

}  // namespace

TEST_CASE("SIGTERM: the listener closes, an upload in progress completes, then the server exits") {
    ServerProcess server(
        ServerOptions{{"auth", "builds"}, {{"http.drain_timeout_ms", "20000"}}, {}});
    const Blob blob = gradient_png("drain", 640, 480, Paint{10, 10, 50, 50});
    const auto created = create_build(
        server, {{"commit", sha('a')}, {"branch", "main"}, {"screenshotKeys", {blob.key}}});
    REQUIRE(created.status == 201);
    const std::string put_url = created.json()["screenshots"][0]["putUrl"];
    const std::string build_id = created.json()["build"]["id"];

    loupe::http_test::RawConnection upload(server.port());
    const std::size_t half = blob.bytes.size() / 2;
    REQUIRE(upload.send("PUT " + path_of(put_url) +
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\n"
                        "Content-Length: " +
                        std::to_string(blob.bytes.size()) + "\r\n\r\n" +
                        blob.bytes.substr(0, half)));
    // The server is reading the body when the signal comes.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const int pid = served_pid(server.output());
    REQUIRE(::kill(pid, SIGTERM) == 0);
    CHECK(wait_until([&] { return !accepts_connections(server.port()); }, std::chrono::seconds(5)));
    CHECK_FALSE(wait_for_exit(pid, std::chrono::milliseconds(200)).has_value());

    REQUIRE(upload.send(blob.bytes.substr(half)));
    const std::string answer = upload.read_until_closed(std::chrono::seconds(10));
    CHECK(answer.starts_with("HTTP/1.1 200"));
    CHECK(answer.find("Connection: close") != std::string::npos);
    const auto exit_code = wait_for_exit(pid, std::chrono::seconds(10));
    REQUIRE(exit_code.has_value());
    CHECK(*exit_code == 0);

    // The upload is stored: the next start finalizes the build with it.
    server.restart();
    const auto updated = http_json("PUT", server.base_url() + "/v2/builds/" + build_id,
                                   {{"screenshots", {{{"key", blob.key}, {"name", "page"}}}}},
                                   server.project_token());
    CHECK_MESSAGE(updated.status == 200, updated.body);
}

TEST_CASE("SIGTERM while diffs are computed: no lease left behind, the next start concludes") {
    constexpr int shot_count = 40;  // half of them changed: 20 diffs to compute
    // A lease far longer than the test: a job left leased would stall the build past it.
    ServerProcess server(
        ServerOptions{{"auth", "builds"},
                      {{"jobs.lease_ms", "300000"}, {"jobs.poll_ms", "50"}, {"jobs.workers", "2"}},
                      {}});
    auto shots = [&](bool changed_half) {
        std::vector<Shot> result;
        for (int i = 0; i < shot_count; ++i) {
            std::optional<Paint> paint;
            if (changed_half && i % 2 == 0) {
                paint = Paint{100 + i, 80, 120, 90};
            }
            result.push_back({"page-" + std::to_string(i),
                              gradient_png("page-" + std::to_string(i), 800, 600, paint)});
        }
        return result;
    };
    REQUIRE(wait_concluded(server, push_shots(server, shots(false),
                                              {{"commit", sha('a')}, {"branch", "main"}})["number"]
                                       .get<int64_t>())["stats"]["added"] == shot_count);
    const auto pushed = push_shots(
        server, shots(true),
        {{"commit", sha('b')}, {"branch", "main"}, {"parentCommits", {sha('b'), sha('a')}}});
    const int64_t number = pushed["number"].get<int64_t>();
    const std::string build_id = pushed["id"];

    auto db = open_server_database(server);
    const std::string computed_sql =
        "SELECT COUNT(*) FROM screenshot_diffs WHERE job_status = 'complete' AND score > 0 AND "
        "build_id = " +
        build_id;
    REQUIRE(
        wait_until([&] { return query_number(*db, computed_sql) > 0; }, std::chrono::seconds(30)));
    const int pid = served_pid(server.output());
    REQUIRE(::kill(pid, SIGTERM) == 0);
    const auto exit_code = wait_for_exit(pid, std::chrono::seconds(40));
    REQUIRE(exit_code.has_value());
    CHECK(*exit_code == 0);
    const long long computed_at_exit = query_number(*db, computed_sql);
    MESSAGE("stopped with " << computed_at_exit << " of 20 changed diffs computed");
    CHECK(computed_at_exit < shot_count / 2);  // the stop landed while work remained
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE status = 'running'") == 0);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE status = 'queued'") > 0);
    db.reset();

    server.restart();
    const auto build = wait_concluded(server, number);
    CHECK(build["conclusion"] == "changes-detected");
    CHECK(build["stats"]["changed"] == shot_count / 2);
    CHECK(build["stats"]["unchanged"] == shot_count / 2);
    db = open_server_database(server);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE status = 'failed'") == 0);
    // Each computed pair counted once in the flakiness counters.
    CHECK(query_number(*db, "SELECT CAST(SUM(value) AS BIGINT) FROM test_stats_fingerprints") ==
          shot_count / 2);
}
