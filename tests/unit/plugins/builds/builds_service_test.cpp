// The builds service as another plugin sees it (fixture plugin "builds_probe", loaded from its
// own folder beside the built-in plugins): reads agree with the API, the one write changes the
// build's status, and observers see each lifecycle event inside the writing transaction.
#include <doctest/doctest.h>

#include "processing_client.hpp"
#include "support/build_paths.hpp"

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

json probe(const ServerProcess& server, const std::string& path) {
    auto result = http_get(server.base_url() + "/v2/probe" + path);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

std::vector<std::string> events_of(const json& events, const std::string& build_id) {
    std::vector<std::string> out;
    for (const auto& event : events) {
        if (std::to_string(event["build"].get<int64_t>()) == build_id) {
            out.push_back(event["event"].get<std::string>() + ":" +
                          event["status"].get<std::string>());
        }
    }
    return out;
}

}  // namespace

TEST_CASE("builds service: reads, review state and lifecycle events, as a plugin sees them") {
    ServerProcess server(with_probe());
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

    // Observers saw the check's life in order, each with the status it had then.
    CHECK(events_of(probe(server, "/events"), id) ==
          std::vector<std::string>{"created:pending", "finalized:pending",
                                   "concluded:changes-detected"});

    // The review-state write: the API reads it at once, observers hear of it once.
    auto accept = http_json("POST", server.base_url() + "/v2/probe/builds/" + id + "/review-state",
                            {{"state", "accepted"}});
    REQUIRE(accept.status == 204);
    CHECK(get_build(server, check["number"])["status"] == "accepted");
    CHECK(http_json("POST", server.base_url() + "/v2/probe/builds/" + id + "/review-state",
                    {{"state", "accepted"}})
              .status == 204);
    auto events = events_of(probe(server, "/events"), id);
    REQUIRE(events.size() == 4);
    CHECK(events.back() == "review_changed:accepted");
    // Clearing it restores the conclusion.
    http_json("POST", server.base_url() + "/v2/probe/builds/" + id + "/review-state",
              json::object());
    CHECK(get_build(server, check["number"])["status"] == "changes-detected");
    CHECK(reference["type"].is_null());  // the resource shows no type; the summary does

    auto missing = http_get(server.base_url() + "/v2/probe/builds/987654");
    CHECK(missing.status == 404);
}
