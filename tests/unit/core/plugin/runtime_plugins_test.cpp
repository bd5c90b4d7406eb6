// Installing plugins through the real Runtime: staging, discard on failure, freezing.
#include <doctest/doctest.h>

#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"

namespace {

std::unique_ptr<loupe::Runtime> make_runtime(const loupe::test::TestDatabase& database,
                                             const loupe::test::TempDir& data,
                                             const std::string& enabled) {
    auto config = loupe::Config::load("", {{"db.url", database.url()},
                                           {"data.dir", data.path()},
                                           {"plugins.path", LOUPE_TEST_FIXTURE_PLUGIN_DIR},
                                           {"plugins.enabled", enabled},
                                           {"log.level", "error"}});
    return std::make_unique<loupe::Runtime>(std::move(config));
}

bool has_route(const loupe::Registries& registries, const std::string& pattern) {
    for (const auto& route : registries.routes) {
        if (route.route.pattern == pattern) {
            return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("a valid plugin's routes and migrations are committed and its track applied") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    auto runtime = make_runtime(database, data, "valid");
    runtime->load_plugins();
    CHECK(runtime->registries().frozen);
    CHECK(has_route(runtime->registries(), "/fixture/ping"));
    CHECK(has_route(runtime->registries(), "/healthz"));
    auto applied = runtime->migrate();
    bool fixture_applied = false;
    for (const auto& step : applied) {
        fixture_applied = fixture_applied || (step.plugin == "valid" && step.version == 1);
    }
    CHECK(fixture_applied);
    CHECK(runtime->migrate().empty());
}

TEST_CASE("a plugin whose install throws is refused and leaves nothing registered") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    auto runtime = make_runtime(database, data, "install_throws");
    try {
        runtime->load_plugins();
        FAIL("expected a refusal");
    } catch (const loupe::PluginLoadError& error) {
        CHECK(std::string(error.what()) ==
              "plugin 'install_throws' (" + std::string(LOUPE_TEST_FIXTURE_PLUGIN_DIR) +
                  "/install_throws.so) failed to install: missing setting "
                  "plugins.install_throws.endpoint");
    }
    CHECK_FALSE(has_route(runtime->registries(), "/fixture/never"));
}

TEST_CASE("a subscription to an event version its publisher does not publish stops the start") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    auto config = loupe::Config::load(
        "",
        {{"db.url", database.url()},
         {"data.dir", data.path()},
         {"plugins.path", std::string(LOUPE_TEST_PLUGIN_DIR) + ":" + LOUPE_TEST_FIXTURE_PLUGIN_DIR},
         {"plugins.enabled", "builds,subscribes_v2"},
         {"log.level", "error"}});
    loupe::Runtime runtime(std::move(config));
    try {
        runtime.load_plugins();
        FAIL("expected a refusal");
    } catch (const loupe::PluginLoadError& error) {
        CHECK(std::string(error.what()) ==
              "plugin 'subscribes_v2' subscribes 'subscribes_v2.listener' to event "
              "'build.concluded' version 2, but plugin 'builds' publishes version 1 (rebuild one "
              "against the other)");
    }
    CHECK_FALSE(runtime.registries().frozen);
}

TEST_CASE("registering after install() is a programming error") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    auto runtime = make_runtime(database, data, "registers_late");
    runtime->load_plugins();
    CHECK_THROWS_WITH_AS(runtime->run_ready_hooks(),
                         doctest::Contains("registered a route after install()"), std::logic_error);
}
