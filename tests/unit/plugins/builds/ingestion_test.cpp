// End to end: the builds plugin's ingestion endpoints on a real server (SQLite or PostgreSQL).
#include <doctest/doctest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <future>
#include <set>

#include "builds_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "support/server_database.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

std::string builds_url(const TestServer& server) {
    return server.base_url() + "/v2/projects/default/default/builds";
}

json keys_of(const std::vector<Blob>& blobs) {
    json keys = json::array();
    for (const auto& blob : blobs) {
        keys.push_back(blob.key);
    }
    return keys;
}

}  // namespace

TEST_CASE("a build is created, its screenshots uploaded and it is queued for processing") {
    InProcessServer server;
    std::vector<Blob> blobs{make_blob("home"), make_blob("about")};
    auto build = push_build(server, blobs);
    CHECK(build["number"] == 1);
    CHECK(build["status"] == "pending");
    CHECK(build["conclusion"].is_null());
    CHECK(build["head"]["sha"] == commit_a);
    CHECK(build["head"]["branch"] == "main");
    CHECK(build["notification"]["description"] == "Build is queued");
    CHECK(build["notification"]["github"]["state"] == "pending");
    CHECK(build["url"] == server.base_url() + "/default/default/builds/1");

    auto by_pat = http_get(builds_url(server) + "/1", server.personal_token());
    REQUIRE(by_pat.status == 200);
    CHECK(by_pat.json()["id"] == build["id"]);
    CHECK(http_get(builds_url(server) + "/1", server.project_token()).status == 200);

    CHECK(count_rows(server, "SELECT COUNT(*) FROM screenshots") == 2);
    // Finalizing queued exactly one processing job (workers may already have run it).
    CHECK(count_rows(server, "SELECT COUNT(*) FROM jobs WHERE kind = 'build.process'") == 1);

    // Keys Loupe already holds are not listed again.
    auto again = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", keys_of(blobs)}});
    REQUIRE(again.status == 201);
    CHECK(again.json()["screenshots"].empty());
    CHECK(again.json()["build"]["number"] == 2);
}

TEST_CASE("POST /builds refuses bad input and stores nothing") {
    InProcessServer server;
    auto malformed = http(HttpCall{"POST",
                                   server.base_url() + "/v2/builds",
                                   "{\"commit\":",
                                   "application/json",
                                   server.project_token(),
                                   {}});
    CHECK(malformed.status == 400);

    json too_many = json::array();
    for (int i = 0; i < 5001; ++i) {
        too_many.push_back(make_blob(std::to_string(i)).key);
    }
    auto over = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", too_many}});
    CHECK(over.status == 400);
    CHECK(first_detail(over) ==
          "screenshotKeys is A build cannot contain more than 5000 "
          "screenshots. Use parallel mode to split a larger test suite "
          "across several builds.");

    auto both = create_build(server, {{"commit", commit_a},
                                      {"branch", "main"},
                                      {"screenshotKeys", json::array()},
                                      {"screenshots", json::array()}});
    CHECK(first_detail(both) == " is Invalid input");

    auto bad_commit = create_build(
        server, {{"commit", "XYZ"}, {"branch", "main"}, {"screenshotKeys", json::array()}});
    CHECK(first_detail(bad_commit) ==
          "commit is Invalid string: must match pattern /^[0-9a-f]{40}$/");

    auto key = make_blob("dup").key;
    auto duplicate = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", {key, key}}});
    CHECK(first_detail(duplicate) == "screenshotKeys is Must be an array of unique strings");

    auto no_nonce = create_build(server, {{"commit", commit_a},
                                          {"branch", "main"},
                                          {"screenshotKeys", json::array()},
                                          {"parallel", true}});
    CHECK(no_nonce.status == 400);
    CHECK(error_of(no_nonce) == "`parallelNonce` is required when `parallel` is `true`");

    auto with_pat = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", json::array()}},
        server.personal_token());
    CHECK(with_pat.status == 401);

    CHECK(count_rows(server, "SELECT COUNT(*) FROM builds") == 0);
}

TEST_CASE("uploads are checked against their key and signature") {
    InProcessServer server;
    auto blob = make_blob("checked");
    auto created = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", {blob.key}}});
    REQUIRE(created.status == 201);
    const std::string put_url = created.json()["screenshots"][0]["putUrl"];

    CHECK(upload(put_url, "not the right bytes") == 400);
    auto tampered = put_url.substr(0, put_url.size() - 4) + "0000";
    CHECK(upload(tampered, blob.bytes) == 403);
    // Nothing was stored: the key is still listed for upload.
    auto again = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", {blob.key}}});
    CHECK(again.json()["screenshots"].size() == 1);

    const std::string build_id = created.json()["build"]["id"];
    auto missing = http_json("PUT", server.base_url() + "/v2/builds/" + build_id,
                             {{"screenshots", {{{"key", blob.key}, {"name", "home"}}}}},
                             server.project_token());
    CHECK(missing.status == 400);
    CHECK(first_detail(missing) == "No uploaded file for key " + blob.key);

    CHECK(upload(put_url, blob.bytes) == 200);
    CHECK(upload(put_url, blob.bytes) == 200);  // idempotent re-upload
    auto stored = http_json("PUT", server.base_url() + "/v2/builds/" + build_id,
                            {{"screenshots", {{{"key", blob.key}, {"name", "home"}}}}},
                            server.project_token());
    CHECK(stored.status == 200);
}

TEST_CASE("PUT /builds/{id} follows Argos for unknown, finalized and foreign builds") {
    InProcessServer server;
    auto blob = make_blob("a");
    auto build = push_build(server, {blob});
    const std::string id = build["id"];
    const auto url = server.base_url() + "/v2/builds/";

    auto unknown =
        http_json("PUT", url + "999999", {{"screenshots", json::array()}}, server.project_token());
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Build not found");
    CHECK(http_json("PUT", url + "abc", {{"screenshots", json::array()}}, server.project_token())
              .status == 404);

    auto retry =
        http_json("PUT", url + id, {{"screenshots", {{{"key", blob.key}, {"name", "shot-0"}}}}},
                  server.project_token());
    CHECK(retry.status == 200);
    auto other = make_blob("b");
    auto conflict =
        http_json("PUT", url + id, {{"screenshots", {{{"key", other.key}, {"name", "new"}}}}},
                  server.project_token());
    CHECK(conflict.status == 409);
    CHECK(error_of(conflict) == "Build is already finalized");

    std::string out;
    server.run_cli(
        {"admin", "project", "create", "--account", "default", "--name", "other", "--json"}, out);
    auto token_at = out.find("argos_");
    REQUIRE(token_at != std::string::npos);
    const auto other_token = out.substr(token_at, 40);
    auto fresh = create_build(
        server, {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", json::array()}});
    const std::string fresh_id = fresh.json()["build"]["id"];
    auto foreign = http_json("PUT", url + fresh_id, {{"screenshots", json::array()}}, other_token);
    CHECK(foreign.status == 403);
    CHECK(error_of(foreign) == "Build does not belong to project");

    auto bad_metadata = http_json(
        "PUT", url + fresh_id,
        {{"screenshots", {{{"key", blob.key}, {"name", "x"}, {"metadata", {{"url", "u"}}}}}}},
        server.project_token());
    CHECK(bad_metadata.status == 400);
    CHECK(first_detail(bad_metadata) ==
          "screenshots.0.metadata.automationLibrary is Invalid input: expected object, received "
          "undefined");
}

TEST_CASE("screenshot names are de-duplicated as Argos does") {
    InProcessServer server;
    auto a = make_blob("a"), b = make_blob("b"), c = make_blob("c");
    auto created = create_build(
        server,
        {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", {a.key, b.key, c.key}}});
    const auto response = created.json();
    for (const auto& target : response["screenshots"]) {
        for (const auto* blob : {&a, &b, &c}) {
            if (blob->key == target["key"]) {
                REQUIRE(upload(target["putUrl"], blob->bytes) == 200);
            }
        }
    }
    const std::string id = response["build"]["id"];
    auto put = http_json("PUT", server.base_url() + "/v2/builds/" + id,
                         {{"screenshots",
                           {{{"key", a.key}, {"name", "page"}},
                            {{"key", b.key}, {"name", "page"}},
                            {{"key", c.key}, {"name", "page"}},
                            {{"key", a.key}, {"name", "page"}}}},
                          {"final", false}},
                         server.project_token());
    INFO(put.body);
    REQUIRE(put.status == 200);
    auto db = open_server_database(server);
    std::vector<std::string> names(10);
    *db << "SELECT name FROM screenshots ORDER BY name", soci::into(names);
    CHECK(names == std::vector<std::string>{"page", "page-1", "page-2"});
    // final: false (the daily prune job is queued at start)
    CHECK(count_rows(server, "SELECT COUNT(*) FROM jobs WHERE kind <> 'build.prune'") == 0);
}

TEST_CASE("three shards make one build, complete after the third") {
    InProcessServer server;
    const json parallel = {{"parallel", true}, {"parallelNonce", "run-42"}};
    std::string build_id;
    for (int shard = 1; shard <= 3; ++shard) {
        auto blob = make_blob("shard" + std::to_string(shard));
        json body = {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", {blob.key}}};
        body.update(parallel);
        auto created = create_build(server, body);
        REQUIRE(created.status == 201);
        auto response = created.json();
        if (build_id.empty()) {
            build_id = response["build"]["id"];
        }
        CHECK(response["build"]["id"] == build_id);
        REQUIRE(upload(response["screenshots"][0]["putUrl"], blob.bytes) == 200);
        CHECK(count_rows(server, "SELECT COUNT(*) FROM builds WHERE complete = 1") == 0);
        auto put = http_json(
            "PUT", server.base_url() + "/v2/builds/" + build_id,
            {{"screenshots", {{{"key", blob.key}, {"name", "s" + std::to_string(shard)}}}},
             {"parallel", true},
             {"parallelTotal", 3},
             {"parallelIndex", shard},
             {"metadata", {{"testReport", {{"status", "passed"}, {"stats", {{"duration", 10}}}}}}}},
            server.project_token());
        REQUIRE(put.status == 200);
    }
    CHECK(count_rows(server, "SELECT COUNT(*) FROM builds") == 1);
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM builds WHERE complete = 1 AND screenshot_count = 3") ==
          1);
    auto build = http_get(builds_url(server) + "/1", server.project_token()).json();
    CHECK(build["metadata"]["testReport"]["status"] == "passed");
    CHECK(build["metadata"]["testReport"]["stats"]["duration"] == 30.0);
    json body = {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", json::array()}};
    body.update(parallel);
    auto late = create_build(server, body);
    CHECK(late.status == 409);
    CHECK(error_of(late) == "Build already finalized");
}

TEST_CASE("shards with an unknown total complete at POST /builds/finalize") {
    InProcessServer server;
    auto blob = make_blob("x");
    auto created = create_build(server, {{"commit", commit_a},
                                         {"branch", "main"},
                                         {"screenshotKeys", {blob.key}},
                                         {"parallel", true},
                                         {"parallelNonce", "n-1"}});
    REQUIRE(upload(created.json()["screenshots"][0]["putUrl"], blob.bytes) == 200);
    const std::string id = created.json()["build"]["id"];
    for (int shard = 1; shard <= 2; ++shard) {
        auto put = http_json(
            "PUT", server.base_url() + "/v2/builds/" + id,
            {{"screenshots", {{{"key", blob.key}, {"name", "s" + std::to_string(shard)}}}},
             {"parallel", true},
             {"parallelTotal", -1},
             {"parallelIndex", shard}},
            server.project_token());
        REQUIRE(put.status == 200);
    }
    CHECK(count_rows(server, "SELECT COUNT(*) FROM builds WHERE complete = 1") == 0);
    auto other = http_json("POST", server.base_url() + "/v2/builds/finalize",
                           {{"parallelNonce", "unknown"}}, server.project_token());
    CHECK(other.json()["builds"].empty());
    auto finalized = http_json("POST", server.base_url() + "/v2/builds/finalize",
                               {{"parallelNonce", "n-1"}}, server.project_token());
    REQUIRE(finalized.status == 200);
    REQUIRE(finalized.json()["builds"].size() == 1);
    CHECK(finalized.json()["builds"][0]["id"] == id);
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM builds WHERE complete = 1 AND screenshot_count = 2") ==
          1);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM jobs WHERE kind = 'build.process'") == 1);
    auto twice = http_json("POST", server.base_url() + "/v2/builds/finalize",
                           {{"parallelNonce", "n-1"}}, server.project_token());
    CHECK(twice.status == 200);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM jobs WHERE kind = 'build.process'") == 1);
}

TEST_CASE("a skipped build is finalized at once") {
    InProcessServer server;
    auto created = create_build(server, {{"commit", commit_a},
                                         {"branch", "main"},
                                         {"screenshotKeys", json::array()},
                                         {"skipped", true}});
    REQUIRE(created.status == 201);
    CHECK(created.json()["build"]["notification"]["description"] == "Build skipped");
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM builds WHERE type = 'skipped' AND complete = 1") == 1);
}

TEST_CASE("concurrent build creation allocates numbers without gaps or duplicates") {
    InProcessServer server;
    constexpr int clients = 12;
    std::vector<std::future<int>> numbers;
    for (int i = 0; i < clients; ++i) {
        numbers.push_back(std::async(std::launch::async, [&server] {
            auto created = create_build(
                server,
                {{"commit", commit_a}, {"branch", "main"}, {"screenshotKeys", json::array()}});
            return created.status == 201 ? created.json()["build"]["number"].get<int>() : -1;
        }));
    }
    std::set<int> seen;
    for (auto& number : numbers) {
        seen.insert(number.get());
    }
    CHECK(seen.size() == clients);
    CHECK(*seen.begin() == 1);
    CHECK(*seen.rbegin() == clients);
}

TEST_CASE("concurrent shards of one nonce share one build") {
    InProcessServer server;
    std::vector<std::future<std::string>> ids;
    for (int i = 0; i < 8; ++i) {
        ids.push_back(std::async(std::launch::async, [&server] {
            auto created = create_build(server, {{"commit", commit_a},
                                                 {"branch", "main"},
                                                 {"screenshotKeys", json::array()},
                                                 {"parallel", true},
                                                 {"parallelNonce", "same"}});
            return created.status == 201 ? created.json()["build"]["id"].get<std::string>() : "";
        }));
    }
    std::set<std::string> seen;
    for (auto& id : ids) {
        seen.insert(id.get());
    }
    CHECK(seen.size() == 1);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM builds") == 1);
}

TEST_CASE("GET build and list builds: validation, access and filters") {
    InProcessServer server;
    push_build(server, {make_blob("1")}, {{"branch", "main"}});
    push_build(server, {make_blob("2")}, {{"branch", "feature/login"}, {"commit", commit_b}});
    push_build(server, {make_blob("3")}, {{"branch", "feature/login"}, {"name", "mobile"}});

    auto nan = http_get(builds_url(server) + "/abc", server.project_token());
    CHECK(nan.status == 400);
    CHECK(first_detail(nan) == " is Invalid input: expected number, received NaN");
    CHECK(first_detail(http_get(builds_url(server) + "/0")) ==
          " is Too small: expected number to be >=1");
    auto missing_pt = http_get(builds_url(server) + "/99", server.project_token());
    CHECK(missing_pt.status == 401);
    auto missing_pat = http_get(builds_url(server) + "/99", server.personal_token());
    CHECK(missing_pat.status == 404);
    CHECK(error_of(missing_pat) == "Not found");

    auto all = http_get(builds_url(server), server.project_token()).json();
    CHECK(all["pageInfo"]["total"] == 3);
    CHECK(all["results"][0]["number"] == 3);
    CHECK(http_get(builds_url(server) + "?head=feature/login", server.project_token())
              .json()["pageInfo"]["total"] == 2);
    CHECK(http_get(builds_url(server) + "?headSha=" + commit_b, server.project_token())
              .json()["pageInfo"]["total"] == 1);
    CHECK(http_get(builds_url(server) + "?search=MOBILE", server.project_token())
              .json()["pageInfo"]["total"] == 1);
    CHECK(http_get(builds_url(server) + "?search=bbbbbbb", server.project_token())
              .json()["pageInfo"]["total"] == 1);
    CHECK(http_get(builds_url(server) + "?search=%25", server.project_token())
              .json()["pageInfo"]["total"] == 0);
    auto distinct =
        http_get(builds_url(server) + "?distinctName=true", server.project_token()).json();
    CHECK(distinct["pageInfo"]["total"] == 2);
    auto page = http_get(builds_url(server) + "?perPage=1&page=2", server.project_token()).json();
    CHECK(page["results"].size() == 1);
    CHECK(page["results"][0]["number"] == 2);
    auto bad_sha = http_get(builds_url(server) + "?headSha=xyz", server.project_token());
    CHECK(first_detail(bad_sha) ==
          "headSha is Invalid string: must match pattern /^[0-9a-f]{40}$/");
}

TEST_CASE("every screenshot field is stored as sent, and absent ones as NULL") {
    InProcessServer server;
    auto a = make_blob("a"), b = make_blob("b"), trace = make_blob("trace");
    auto created = create_build(server, {{"commit", commit_a},
                                         {"branch", "main"},
                                         {"screenshotKeys", {a.key, b.key}},
                                         {"pwTraceKeys", {trace.key}}});
    REQUIRE(created.status == 201);
    const auto response = created.json();
    for (const auto& list : {response["screenshots"], response["pwTraces"]}) {
        for (const auto& target : list) {
            for (const auto* blob : {&a, &b, &trace}) {
                if (blob->key == target["key"]) {
                    REQUIRE(upload(target["putUrl"], blob->bytes) == 200);
                }
            }
        }
    }
    const json metadata = {
        {"url", "https://example.com/é?q=\"x\""},
        {"viewport", {{"width", 1280}, {"height", 720}}},
        {"test",
         {{"id", "t1"},
          {"title", "renders"},
          {"titlePath", {"suite", "renders"}},
          {"retries", 2},
          {"retry", 1}}},
        {"automationLibrary", {{"name", "@playwright/test"}, {"version", "1.49.0"}}},
        {"sdk", {{"name", "@argos-ci/playwright"}, {"version", "4.1.0"}}}};
    const std::string id = response["build"]["id"];
    auto put = http_json("PUT", server.base_url() + "/v2/builds/" + id,
                         {{"screenshots",
                           {{{"key", a.key},
                             {"name", "full"},
                             {"baseName", {"old name", "older name"}},
                             {"parentName", "parent"},
                             {"threshold", 0.25},
                             {"pwTraceKey", trace.key},
                             {"contentType", "image/png"},
                             {"metadata", metadata}},
                            {{"key", b.key}, {"name", "bare"}}}},
                          {"final", false}},
                         server.project_token());
    INFO(put.body);
    REQUIRE(put.status == 200);

    auto db = open_server_database(server);
    soci::rowset<soci::row> rows =
        (db->prepare << "SELECT name, blob_key, content_type, base_names, parent_name, metadata, "
                        "pw_trace_key, threshold, test_id FROM screenshots ORDER BY id");
    std::vector<std::string> seen;
    for (const auto& row : rows) {
        const auto name = row.get<std::string>(0);
        seen.push_back(name);
        CHECK(row.get_indicator(8) == soci::i_ok);  // every screenshot has its test
        if (name == "full") {
            CHECK(row.get<std::string>(1) == a.key);
            CHECK(row.get<std::string>(2) == "image/png");
            CHECK(json::parse(row.get<std::string>(3)) == json{"old name", "older name"});
            CHECK(row.get<std::string>(4) == "parent");
            CHECK(json::parse(row.get<std::string>(5)) == metadata);
            CHECK(row.get<std::string>(6) == trace.key);
            CHECK(row.get<double>(7) == doctest::Approx(0.25));
        } else {
            CHECK(row.get<std::string>(1) == b.key);
            for (std::size_t column = 3; column <= 7; ++column) {
                INFO("column " << column);
                CHECK(row.get_indicator(column) == soci::i_null);
            }
        }
    }
    CHECK(seen == std::vector<std::string>{"full", "bare"});
    CHECK(count_rows(server, "SELECT COUNT(*) FROM build_tests") == 2);
}
