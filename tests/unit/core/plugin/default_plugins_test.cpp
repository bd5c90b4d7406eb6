// Without plugins.enabled anywhere, a process loads the whole product; etc/loupe.properties and
// the README say the same list.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "config/config.hpp"
#include "loupe/plugin.hpp"
#include "plugin/plugin_settings.hpp"
#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/server_process.hpp"

namespace {

const std::vector<std::string> whole_product = {
    "auth", "builds", "reviews", "deployments", "web",           "analytics",
    "git",  "sso",    "oauth",   "automation",  "notifications", "media"};

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("without plugins.enabled, loupe loads every plugin of the product") {
    CHECK(loupe::split_list(loupe::default_enabled_plugins) == whole_product);
    CHECK(loupe::enabled_plugin_names(*loupe::Config::load("", {})) == whole_product);

    // The real executable with a configuration file that does not name plugins.enabled.
    loupe::test::TempDir folder;
    const std::string empty_config = folder.path() + "/empty.properties";
    std::ofstream(empty_config) << "# no plugins.enabled here\n";
    loupe::test::TestDatabase database;
    std::string out;
    const int status =
        loupe::test::run_loupe({"--config", empty_config, "--set", "db.url=" + database.url(),
                                "--set", "data.dir=" + folder.path() + "/data", "--set",
                                "plugins.path=" + loupe::test::tested_plugin_dir(), "plugins"},
                               out);
    INFO(out);
    REQUIRE(status == 0);
    for (const auto& name : whole_product) {
        CHECK(std::regex_search(out, std::regex("(^|\n)" + name + " [^\n]*/" + name + "\\.so")));
    }
}

TEST_CASE("etc/loupe.properties and the README name the compiled default") {
    const std::string source = LOUPE_TEST_SOURCE_DIR;
    const auto config = loupe::Config::load(source + "/etc/loupe.properties", {});
    CHECK(loupe::enabled_plugin_names(*config) == whole_product);

    const std::string readme = read_text(source + "/README.md");
    std::smatch row;
    REQUIRE(
        std::regex_search(readme, row, std::regex("\\| `plugins\\.enabled` \\| `([^`]*)` \\|")));
    CHECK(loupe::split_list(row[1].str()) == whole_product);
}
