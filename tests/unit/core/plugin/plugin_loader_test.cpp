#include "plugin/plugin_loader.hpp"

#include <doctest/doctest.h>

#include <string>

#include "support/build_paths.hpp"

using loupe::LoadedPlugin;
using loupe::PluginLoadError;

namespace {

std::string fixture(const std::string& name) {
    return std::string(LOUPE_TEST_FIXTURE_PLUGIN_DIR) + "/" + name + ".so";
}

std::string load_error(const std::string& name) {
    try {
        loupe::open_plugin(fixture(name));
    } catch (const PluginLoadError& error) {
        return error.what();
    }
    return "(loaded)";
}

LoadedPlugin fake(std::string name, std::vector<std::string> requires_names) {
    LoadedPlugin plugin;
    plugin.name = std::move(name);
    plugin.path = "/plugins/" + plugin.name + ".so";
    plugin.requires_names = std::move(requires_names);
    return plugin;
}

}  // namespace

TEST_CASE("a valid plugin loads and describes itself") {
    auto plugin = loupe::open_plugin(fixture("valid"));
    CHECK(plugin.name == "valid");
    CHECK(plugin.version == "1.0.0");
    CHECK(plugin.requires_names.empty());
    const bool has_install = plugin.descriptor->install != nullptr;
    CHECK(has_install);
}

TEST_CASE("a library without the entry point is not a plugin") {
    auto message = load_error("no_entry");
    CHECK(message.find(fixture("no_entry")) != std::string::npos);
    CHECK(message.find("not a Loupe plugin (no loupe_plugin symbol)") != std::string::npos);
}

TEST_CASE("a descriptor smaller than the core's minimum is refused naming the size field") {
    auto message = load_error("wrong_size");
    CHECK(message.find(fixture("wrong_size")) != std::string::npos);
    CHECK(message.find("descriptor field 'size' is 8, the core needs at least " +
                       std::to_string(sizeof(loupe_plugin_descriptor))) != std::string::npos);
}

TEST_CASE("a plugin for another API version is refused naming both versions") {
    auto message = load_error("wrong_api_version");
    CHECK(message.find(fixture("wrong_api_version")) != std::string::npos);
    CHECK(message.find("descriptor field 'api_version' is " +
                       std::to_string(LOUPE_PLUGIN_API_VERSION + 1) + ", the core has " +
                       std::to_string(LOUPE_PLUGIN_API_VERSION)) != std::string::npos);
}

TEST_CASE("a plugin built by another toolchain is refused naming both build ids") {
    auto message = load_error("wrong_build_id");
    CHECK(message.find("descriptor field 'build_id' is 'Clang-99;cxx20;san=none', the core has '" +
                       std::string(LOUPE_BUILD_ID) + "'") != std::string::npos);
}

TEST_CASE("a missing file is reported") {
    CHECK(load_error("does_not_exist").find("does not exist") != std::string::npos);
}

TEST_CASE("a missing requirement is refused naming both plugins") {
    auto plugin = loupe::open_plugin(fixture("requires_missing"));
    CHECK(plugin.requires_names == std::vector<std::string>{"absent_plugin"});
    try {
        loupe::order_plugins({plugin});
        FAIL("expected a refusal");
    } catch (const PluginLoadError& error) {
        CHECK(std::string(error.what()) ==
              "plugin 'requires_missing' (" + fixture("requires_missing") +
                  ") requires plugin 'absent_plugin', which is not enabled (add it to "
                  "plugins.enabled)");
    }
}

TEST_CASE("plugins are ordered after their requirements") {
    auto ordered = loupe::order_plugins(
        {fake("reviews", {"builds"}), fake("builds", {"auth"}), fake("auth", {})});
    REQUIRE(ordered.size() == 3);
    CHECK(ordered[0].name == "auth");
    CHECK(ordered[1].name == "builds");
    CHECK(ordered[2].name == "reviews");
}

TEST_CASE("a requirement cycle is refused") {
    try {
        loupe::order_plugins({fake("a", {"b"}), fake("b", {"a"})});
        FAIL("expected a refusal");
    } catch (const PluginLoadError& error) {
        CHECK(std::string(error.what()).find("cycle: a -> b -> a") != std::string::npos);
    }
}

TEST_CASE("a duplicate plugin name is refused") {
    CHECK_THROWS_WITH_AS(loupe::order_plugins({fake("a", {}), fake("a", {})}),
                         doctest::Contains("is already loaded"), PluginLoadError);
    CHECK_THROWS_WITH_AS(
        loupe::open_enabled_plugins(LOUPE_TEST_FIXTURE_PLUGIN_DIR, {"valid", "valid"}),
        doctest::Contains("lists 'valid' twice"), PluginLoadError);
}

TEST_CASE("plugins.path is a search path: the first folder holding a plugin wins") {
    const std::string fixtures = LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    const std::string built_in = LOUPE_TEST_PLUGIN_DIR;
    auto plugins =
        loupe::open_enabled_plugins("/nonexistent:" + built_in + ":" + fixtures, {"auth", "valid"});
    REQUIRE(plugins.size() == 2);
    CHECK(plugins[0].path == built_in + "/auth.so");
    CHECK(plugins[1].path == fixtures + "/valid.so");
    const std::string expected_path = fixtures + "/nope.so";
    CHECK_THROWS_WITH_AS(loupe::open_enabled_plugins(fixtures + ":" + built_in, {"nope"}),
                         doctest::Contains(expected_path.c_str()), loupe::PluginLoadError);
}
