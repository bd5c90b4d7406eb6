// End to end: the web plugin's thumbnails and live build state on a real processed build.
// Both read builds through the builds plugin's service; while no enabled plugin offers it the
// routes answer 503 and these checks stop there (with a message).
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <thread>

#include "loupe/imagediff/imagediff.hpp"
#include "support/http_client.hpp"
#include "support/in_process_server.hpp"
#include "support/prometheus_text.hpp"
#include "support/server_process.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using loupe::test::http;
using loupe::test::HttpCall;
using loupe::test::InProcessServer;
using loupe::test::TestServer;
using nlohmann::json;

namespace {

loupe::test::HttpResult get(const TestServer& server, const std::string& path,
                            std::optional<std::string> bearer,
                            std::map<std::string, std::string> headers = {}) {
    return http(
        HttpCall{"GET", server.base_url() + path, "", "", std::move(bearer), std::move(headers)});
}

}  // namespace

TEST_CASE("web plugin: thumbnails and the live state of a build") {
    InProcessServer server(loupe::test::ServerOptions{{"auth", "builds", "web"}, {}, {}});
    using loupe::test::Paint;
    using loupe::test::Shot;
    const std::string pat = server.personal_token();
    loupe::test::push_shots(
        server,
        {Shot{"same", loupe::test::png_blob("same", std::nullopt, false, 640, 480)},
         Shot{"moved", loupe::test::png_blob("moved", std::nullopt, false, 640, 480)}},
        {{"commit", loupe::test::sha('1')}, {"branch", "main"}});
    loupe::test::wait_concluded(server, 1);
    loupe::test::push_shots(
        server,
        {Shot{"same", loupe::test::png_blob("same", std::nullopt, false, 640, 480)},
         Shot{"moved", loupe::test::png_blob("moved", Paint{100, 100, 200, 100}, false, 640, 480)},
         Shot{"new", loupe::test::png_blob("new", std::nullopt, false, 640, 480)}},
        {{"commit", loupe::test::sha('2')},
         {"branch", "feature"},
         {"referenceCommit", loupe::test::sha('1')}});
    const json build = loupe::test::wait_concluded(server, 2);
    REQUIRE(build.at("status") == "changes-detected");

    const std::string live = "/_loupe/live/default/default/2";
    const auto first = get(server, live, pat);
    if (first.status == 503) {
        MESSAGE(
            "the builds plugin offers no BuildsService yet: thumbnails and live state untested");
        return;
    }
    INFO(first.body);
    REQUIRE(first.status == 200);
    CHECK(first.json().at("status") == "changes-detected");
    CHECK(first.json().at("diffs").at("total") == 3);
    CHECK(first.json().at("diffs").at("pending") == 0);
    const std::string etag = first.header("etag");
    REQUIRE(etag.size() > 2);
    CHECK(get(server, live, pat, {{"If-None-Match", etag}}).status == 304);
    CHECK(get(server, live, server.project_token()).status == 200);
    CHECK(get(server, live, std::nullopt).status == 401);
    CHECK(get(server, "/_loupe/live/default/default/99", pat).status == 404);
    CHECK(get(server, "/_loupe/live/default/default/x", pat).status == 400);
    CHECK(get(server, "/_loupe/live/default/default/99", server.project_token()).status == 401);

    const json diffs = loupe::test::list_diffs(server, 2).at("results");
    std::string changed_id;
    std::string added_id;
    for (const auto& diff : diffs) {
        if (diff.at("status") == "changed") {
            changed_id = diff.at("id");
        }
        if (diff.at("status") == "added") {
            added_id = diff.at("id");
        }
    }
    REQUIRE_FALSE(changed_id.empty());
    REQUIRE_FALSE(added_id.empty());

    const std::string thumbs = "/_loupe/thumbnails/default/default/2/";
    const auto thumbnail = get(server, thumbs + changed_id + "/head", pat);
    INFO(thumbnail.body.substr(0, 200));
    REQUIRE(thumbnail.status == 200);
    CHECK(thumbnail.header("content-type") == "image/jpeg");
    loupe::imagediff::Image image;
    loupe::imagediff::decode(
        std::span(reinterpret_cast<const uint8_t*>(thumbnail.body.data()), thumbnail.body.size()),
        image);
    CHECK(image.width == 240);
    CHECK(image.height == 180);
    // Made once, then served from its blob.
    CHECK(get(server, thumbs + changed_id + "/head", pat).body == thumbnail.body);
    auto database = loupe::test::open_server_database(server);
    CHECK(loupe::test::query_number(*database, "SELECT COUNT(*) FROM web_thumbnails") == 1);

    CHECK(get(server, thumbs + changed_id + "/base", pat).status == 200);
    CHECK(get(server, thumbs + added_id + "/base", pat).status == 404);
    CHECK(get(server, thumbs + changed_id + "/mask", pat).status == 404);
    CHECK(get(server, thumbs + "999999/head", pat).status == 404);
    CHECK(get(server, thumbs + changed_id + "/head", std::nullopt).status == 401);
    CHECK(get(server, thumbs + changed_id + "/head", server.project_token()).status == 200);
}

TEST_CASE("web plugin: a screenshot is decoded once for its thumbnail, within the image budget") {
    InProcessServer server(loupe::test::ServerOptions{{"auth", "builds", "web"}, {}, {}});
    const std::string pat = server.personal_token();
    const json build = loupe::test::wait_concluded(
        server,
        loupe::test::push_shots(server, {{"page", loupe::test::gradient_png("page", 1600, 3000)}},
                                {{"commit", loupe::test::sha('1')}, {"branch", "main"}})["number"]);
    const std::string diff_id =
        loupe::test::list_diffs(server, build["number"])["results"][0]["id"];
    const std::string path = "/_loupe/thumbnails/default/default/" +
                             std::to_string(build["number"].get<int64_t>()) + "/" + diff_id +
                             "/head";
    // A page of reviewers opening the same new build at once.
    std::vector<std::thread> viewers;
    std::vector<loupe::test::HttpResult> answers(8);
    for (std::size_t i = 0; i < answers.size(); ++i) {
        viewers.emplace_back([&, i] { answers[i] = get(server, path, pat); });
    }
    for (auto& viewer : viewers) {
        viewer.join();
    }
    for (const auto& answer : answers) {
        CHECK(answer.status == 200);
        CHECK(answer.body == answers.front().body);
    }
    const auto metrics = get(server, "/metrics", std::nullopt);
    REQUIRE(metrics.status == 200);
    const auto text = loupe::test::PromText::parse(metrics.body);
    CHECK(text.value("loupe_thumbnails_made_total") == 1);
    CHECK(text.value("loupe_image_memory_reservations_total", {{"purpose", "thumbnail"}}) == 1);
    CHECK(text.value("loupe_image_memory_reserved_bytes") == 0);
    CHECK(text.value("loupe_image_memory_capacity_bytes") > 0);
}
