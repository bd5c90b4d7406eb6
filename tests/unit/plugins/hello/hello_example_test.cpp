// The SDK example plugin (examples/plugin-hello), compiled by the tree as a fixture plugin so
// the suite runs it on SQLite and PostgreSQL: its migrations, routes, job, its use of the
// builds service and its subscriber to build.concluded. tests/packaging/run.sh builds the same
// source out of tree against the installed SDK.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "support/build_paths.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerOptions with_hello() {
    ServerOptions options;
    options.plugins = {"auth", "builds", "hello"};
    options.settings["plugins.path"] =
        std::string(LOUPE_TEST_PLUGIN_DIR) + ":" + LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    options.settings["plugins.hello.salutation"] = "Bonjour";
    return options;
}

json greetings(const TestServer& server) {
    auto result = http_get(server.base_url() + "/v2/hello/greetings", server.project_token());
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

/// The greeting with this text once its reply was written (60 s at most).
json replied_greeting(const TestServer& server, const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        for (const auto& greeting : greetings(server)) {
            if (greeting["text"] == text && greeting["reply"].is_string()) {
                return greeting;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("no reply to the greeting '" << text << "'");
    return {};
}

}  // namespace

TEST_CASE("SDK example plugin: migration, routes, job and the builds service") {
    InProcessServer server(with_hello());
    const auto url = server.base_url() + "/v2/hello/greetings";

    auto empty = http_json("POST", url, {{"text", ""}}, server.project_token());
    CHECK(empty.status == 400);
    CHECK(empty.json()["details"][0]["message"] == "text must be a string of 1 to 200 characters");
    CHECK(http_json("POST", url, {{"text", "world"}}).status == 401);
    CHECK(http_json("POST", url, {{"text", ""}}).status ==
          401);  // a body without a token is unread

    auto created = http_json("POST", url, {{"text", "world"}}, server.project_token());
    REQUIRE_MESSAGE(created.status == 201, created.body);
    CHECK(created.json()["reply"].is_null());
    auto greeting = replied_greeting(server, "world");
    CHECK(greeting["id"] == created.json()["id"]);
    CHECK(greeting["reply"] == "Bonjour, world!");

    // The subscriber greets the concluded build once its conclusion was delivered.
    auto build =
        wait_concluded(server, push_shots(server, {{"x", png_blob("x")}},
                                          {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    const auto number = std::to_string(build["number"].get<int64_t>());
    const std::string status = build["status"];
    auto greeted_build = replied_greeting(server, "build #" + number + " (" + status + ")");
    CHECK(greeted_build["reply"] == "Bonjour, build #" + number + " (" + status + ")!");

    auto greeted =
        http_get(server.base_url() + "/v2/hello/builds/" + number, server.project_token());
    REQUIRE_MESSAGE(greeted.status == 200, greeted.body);
    CHECK(greeted.json()["greeting"] == "Bonjour, build #" + number + " on main (" + status + ")");
    CHECK(http_get(server.base_url() + "/v2/hello/builds/999", server.project_token()).status ==
          404);
    CHECK(http_get(server.base_url() + "/v2/hello/builds/1x", server.project_token()).status ==
          400);
}
