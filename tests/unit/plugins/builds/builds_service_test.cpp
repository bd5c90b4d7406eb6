// The builds plugin as another plugin sees it (fixture plugin "builds_probe", loaded from its
// own folder beside the built-in plugins): reads agree with the API, the review-state write
// changes the build's status, and builds' events reach a subscriber after the change, retried
// when it fails, never rolling the build back.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "processing_client.hpp"
#include "support/build_paths.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerOptions with_probe() {
    ServerOptions options;
    options.plugins = {"auth", "builds", "builds_probe"};
    options.settings["plugins.path"] =
        std::string(LOUPE_TEST_PLUGIN_DIR) + ":" + LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    return options;
}

json probe(const TestServer& server, const std::string& path) {
    auto result = http_get(server.base_url() + "/v2/probe" + path);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

/// The events the probe received about build `build_id`, by type, once every delivery settled.
std::map<std::string, json> events_of(const TestServer& server, const std::string& build_id) {
    wait_jobs_settled(server, "builds_probe.events");
    std::map<std::string, json> events;
    for (const auto& event : probe(server, "/events")) {
        if (std::to_string(event["build"].get<int64_t>()) == build_id) {
            CHECK_MESSAGE(events.emplace(event["type"].get<std::string>(), event).second,
                          "two events of one type: " << event.dump());
        }
    }
    return events;
}

}  // namespace

TEST_CASE("builds service: reads and the review-state write, as a plugin sees them") {
    InProcessServer server(with_probe());
    const Paint block{10, 8, 14, 10};
    const json main_body = {{"commit", sha('a')}, {"branch", "main"}};
    auto reference = wait_concluded(
        server,
        push_shots(server, {{"x", png_blob("x")}, {"y", png_blob("y")}}, main_body)["number"]);
    const json check_body = {
        {"commit", sha('b')}, {"branch", "feature"}, {"referenceCommit", sha('a')}};
    auto check = wait_concluded(
        server, push_shots(server, {{"x", png_blob("x", block)}, {"y", png_blob("y")}},
                           check_body)["number"]);
    REQUIRE(check["status"] == "changes-detected");
    const std::string id = check["id"];

    // The service renders exactly the API's resource and summarizes the same state.
    auto seen = probe(server, "/builds/" + id);
    CHECK(seen["resource"] == get_build(server, check["number"]));
    CHECK(seen["summary"]["status"] == "changes-detected");
    CHECK(seen["summary"]["conclusion"] == "changes-detected");
    CHECK(seen["summary"]["type"] == "check");
    CHECK(seen["summary"]["headSha"] == sha('b'));
    CHECK(seen["summary"]["screenshotCount"] == 2);
    CHECK(seen["summary"]["stats"]["changed"] == 1);
    CHECK(seen["byNumber"] == seen["summary"]);

    auto diffs = probe(server, "/builds/" + id + "/diffs");
    REQUIRE(diffs.size() == 2);
    std::map<std::string, json> by_name;
    for (const auto& diff : diffs) {
        by_name[diff["name"]] = diff;
    }
    CHECK(by_name["x"]["status"] == "changed");
    CHECK(by_name["x"]["needsReview"] == true);
    CHECK(by_name["x"]["hasFingerprint"] == true);
    CHECK(by_name["x"]["headKey"] == png_blob("x", block).key);
    CHECK(by_name["x"]["baseKey"] == png_blob("x").key);
    CHECK(by_name["y"]["status"] == "unchanged");
    CHECK(by_name["y"]["needsReview"] == false);

    // The review-state write: the API reads it at once; a second identical write changes
    // nothing.
    const auto review_url = server.base_url() + "/v2/probe/builds/" + id + "/review-state";
    auto accept = http_json("POST", review_url, {{"state", "accepted"}});
    REQUIRE(accept.status == 200);
    CHECK(accept.json()["before"].is_null());
    CHECK(accept.json()["build"]["status"] == "accepted");
    CHECK(get_build(server, check["number"])["status"] == "accepted");
    auto again = http_json("POST", review_url, {{"state", "accepted"}});
    CHECK(again.json()["before"] == "accepted");
    // Clearing it restores the conclusion.
    auto cleared = http_json("POST", review_url, json::object());
    CHECK(cleared.json()["before"] == "accepted");
    CHECK(get_build(server, check["number"])["status"] == "changes-detected");
    CHECK(reference["type"].is_null());  // the resource shows no type; the summary does

    auto missing = http_get(server.base_url() + "/v2/probe/builds/987654");
    CHECK(missing.status == 404);
}

TEST_CASE(
    "builds events: created, finalized and concluded reach a subscriber, each once, "
    "retried when it fails, the build never rolled back") {
    InProcessServer server(with_probe());
    // The probe's first two deliveries throw, whichever events they carry.
    REQUIRE(
        http_json("POST", server.base_url() + "/v2/probe/fail-deliveries", {{"count", 2}}).status ==
        204);
    auto build =
        wait_concluded(server, push_shots(server, {{"x", png_blob("x")}},
                                          {{"commit", sha('c')}, {"branch", "main"}})["number"]);
    // A first build's screenshot is added: a change, on a reference build.
    CHECK(build["status"] == "changes-detected");
    const std::string id = build["id"];

    auto events = events_of(server, id);
    REQUIRE(events.size() == 3);
    const auto& created = events["build.created"];
    CHECK(created["status"] == "pending");
    CHECK(created["publisher"] == "builds");
    CHECK(created["version"] == 1);
    CHECK(created["data"]["build"]["number"] == build["number"]);
    CHECK(created["data"]["build"]["branch"] == "main");
    CHECK(created["data"]["build"]["headSha"] == sha('c'));
    CHECK(created["data"]["build"]["prNumber"].is_null());
    CHECK(events["build.finalized"]["status"] == "pending");
    CHECK(events["build.finalized"]["data"]["screenshotCount"] == 1);
    const auto& concluded = events["build.concluded"];
    CHECK(concluded["status"] == "changes-detected");
    CHECK(concluded["data"]["conclusion"] == "changes-detected");
    CHECK(concluded["data"]["type"] == "reference");
    CHECK(concluded["data"]["stats"]["added"] == 1);
    // Every event recorded once; the two failed attempts were retried (same event, attempt
    // counted), not lost and not duplicated.
    int retried_attempts = 0;
    for (const auto& [type, event] : events) {
        CHECK(event["deliveries"] == 1);
        retried_attempts += event["attempt"].get<int>() - 1;
    }
    CHECK(retried_attempts == 2);

    // `loupe jobs list` shows the deliveries: the subscriber's kind, the envelope as payload.
    std::string out;
    REQUIRE(server.run_cli(
                {"jobs", "list", "--kind", "builds_probe.events", "--status", "done", "--json"},
                out) == 0);
    const auto jobs = json::parse(out.substr(out.find('{')))["jobs"];
    REQUIRE(jobs.size() == 3);
    for (const auto& job : jobs) {
        CHECK(job["kind"] == "builds_probe.events");
        CHECK(job["maxAttempts"] == 4);
        CHECK(job["payload"]["publisher"] == "builds");
        CHECK(events.contains(job["payload"]["type"].get<std::string>()));
        CHECK(job["payload"]["id"] == events[job["payload"]["type"].get<std::string>()]["id"]);
    }
}
