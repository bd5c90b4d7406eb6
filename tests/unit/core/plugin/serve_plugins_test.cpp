// `loupe serve` with plugin sets chosen in the configuration.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "support/build_paths.hpp"
#include "support/http_client.hpp"
#include "support/server_process.hpp"

using loupe::test::ServerOptions;
using loupe::test::ServerProcess;

namespace {

ServerOptions fixtures(const std::string& enabled) {
    ServerOptions options;
    options.plugins = {enabled};
    options.settings["plugins.path"] = LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    return options;
}

int serve_exit_code(const std::string& enabled, std::string& out) {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    return loupe::test::run_loupe(
        {"--set", "db.url=" + database.url(), "--set", "data.dir=" + data.path(), "--set",
         "http.port=0", "--set", std::string("plugins.path=") + LOUPE_TEST_FIXTURE_PLUGIN_DIR,
         "--set", "plugins.enabled=" + enabled, "serve"},
        out);
}

}  // namespace

TEST_CASE("the server starts with only the enabled plugins, next to broken ones") {
    ServerProcess server(fixtures("valid"));
    auto ping = loupe::test::http_get(server.base_url() + "/v2/fixture/ping");
    CHECK(ping.status == 200);
    CHECK(ping.json()["pong"] == true);
    // The auth plugin is not enabled here, so its routes do not exist.
    CHECK(loupe::test::http_get(server.base_url() + "/v2/project").status == 404);
}

TEST_CASE("an enabled plugin with a mismatched descriptor stops the start naming the field") {
    std::string out;
    CHECK(serve_exit_code("wrong_api_version", out) == 1);
    CHECK(out.find("wrong_api_version.so: descriptor field 'api_version' is") != std::string::npos);
    CHECK(out.find("listening") == std::string::npos);
}

TEST_CASE("an enabled plugin with a missing requirement stops the start") {
    std::string out;
    CHECK(serve_exit_code("requires_missing", out) == 1);
    CHECK(out.find("requires plugin 'absent_plugin', which is not enabled") != std::string::npos);
}

TEST_CASE("the core never includes plugin code") {
    // Plugins depend on the core, never the reverse.
    const std::vector<std::string> plugin_headers = {"loupe/builds/", "loupe/imagediff/",
                                                     "loupe/reviews/", "plugins/"};
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             std::string(LOUPE_TEST_SOURCE_DIR) + "/core")) {
        if (!entry.is_regular_file()) {
            continue;
        }
        ++files;
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("#include", 0) != 0) {
                continue;
            }
            for (const auto& header : plugin_headers) {
                INFO(entry.path().string() << ": " << line);
                CHECK(line.find(header) == std::string::npos);
            }
        }
    }
    CHECK(files > 20);
}
