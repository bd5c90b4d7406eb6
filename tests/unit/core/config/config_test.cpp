#include "config/config.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "support/test_database.hpp"

namespace {

using loupe::Config;

// Sets an environment variable for one test and restores its absence afterwards.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
        ::setenv(name_.c_str(), value.c_str(), 1);
    }
    ~ScopedEnv() { ::unsetenv(name_.c_str()); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
};

std::string write_properties(const loupe::test::TempDir& dir, const std::string& text) {
    const auto path = (std::filesystem::path(dir.path()) / "loupe.properties").string();
    std::ofstream(path) << text;
    return path;
}

std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("config: --set beats the environment, which beats the file, which beats the fallback") {
    loupe::test::TempDir dir;
    const auto path = write_properties(dir,
                                       "# comment\n"
                                       "zz_layer.file_only = from-file\n"
                                       "zz_layer.file_env = from-file\n"
                                       "zz_layer.all = from-file\n");
    ScopedEnv env_a("LOUPE_ZZ_LAYER_FILE_ENV", "from-env");
    ScopedEnv env_b("LOUPE_ZZ_LAYER_ALL", "from-env");
    ScopedEnv env_c("LOUPE_ZZ_LAYER_ENV_ONLY", "from-env");
    const auto config = Config::load(path, {{"zz_layer.all", "from-set"}});

    CHECK(config->get_string("zz_layer.file_only", "fallback") == "from-file");
    CHECK(config->get_string("zz_layer.file_env", "fallback") == "from-env");
    CHECK(config->get_string("zz_layer.all", "fallback") == "from-set");
    CHECK(config->get_string("zz_layer.env_only", "fallback") == "from-env");
    CHECK(config->get_string("zz_layer.nowhere", "fallback") == "fallback");
    CHECK_FALSE(config->find("zz_layer.nowhere").has_value());
}

TEST_CASE("config: environment names are LOUPE_ + upper case, dots and dashes as underscores") {
    CHECK(Config::env_name("http.port") == "LOUPE_HTTP_PORT");
    CHECK(Config::env_name("plugins.builds.upload-max_bytes") ==
          "LOUPE_PLUGINS_BUILDS_UPLOAD_MAX_BYTES");
    CHECK(Config::env_name("db.url") == "LOUPE_DB_URL");
}

TEST_CASE("config: an empty path means built-in defaults, a missing file is named") {
    const auto config = Config::load("", {{"http.port", "9090"}});
    CHECK(config->get_int("http.port", 8080) == 9090);
    CHECK(config->get_int("http.threads", 16) == 16);

    const auto message = error_of([] { Config::load("/nonexistent/loupe.properties", {}); });
    CHECK(message.find("/nonexistent/loupe.properties") != std::string::npos);
}

TEST_CASE("config: a plugin view sees its own section with the same precedence") {
    loupe::test::TempDir dir;
    const auto path = write_properties(dir,
                                       "plugins.zzview.upload_max_bytes = 100\n"
                                       "plugins.zzview.name = file\n"
                                       "plugins.other.name = other\n");
    ScopedEnv env("LOUPE_PLUGINS_ZZVIEW_NAME", "env");
    const auto config = Config::load(path, {{"plugins.zzview.flag", "on"}});
    const auto view = config->view("plugins.zzview.");

    CHECK(view->get_int("upload_max_bytes", 0) == 100);
    CHECK(view->get_string("name", "") == "env");
    CHECK(view->get_bool("flag", false));
    CHECK_FALSE(view->find("plugins.other.name").has_value());
    CHECK(view->get_string("missing", "default") == "default");
}

TEST_CASE("config: typed getters parse values and refuse bad ones naming key and value") {
    const auto config = Config::load("", {{"n.int", " 42 "},
                                          {"n.negative", "-7"},
                                          {"n.double", "0.25"},
                                          {"n.bad_int", "12abc"},
                                          {"n.bad_double", "fast"},
                                          {"n.bad_bool", "maybe"}});
    CHECK(config->get_int("n.int", 0) == 42);
    CHECK(config->get_int("n.negative", 0) == -7);
    CHECK(config->get_double("n.double", 0) == doctest::Approx(0.25));
    CHECK(config->get_double("n.int", 0) == doctest::Approx(42));

    const auto bad_int = error_of([&] { config->get_int("n.bad_int", 0); });
    CHECK(bad_int.find("n.bad_int") != std::string::npos);
    CHECK(bad_int.find("12abc") != std::string::npos);
    const auto bad_double = error_of([&] { config->get_double("n.bad_double", 0); });
    CHECK(bad_double.find("n.bad_double") != std::string::npos);
    CHECK(bad_double.find("fast") != std::string::npos);
    const auto bad_bool = error_of([&] { config->get_bool("n.bad_bool", false); });
    CHECK(bad_bool.find("n.bad_bool") != std::string::npos);
    CHECK(bad_bool.find("maybe") != std::string::npos);
}

TEST_CASE("config: booleans accept true/false, yes/no, on/off, 1/0 in any case") {
    const auto config = Config::load("", {{"b.1", "true"},
                                          {"b.2", "YES"},
                                          {"b.3", "On"},
                                          {"b.4", "1"},
                                          {"b.5", "false"},
                                          {"b.6", "no"},
                                          {"b.7", "OFF"},
                                          {"b.8", "0"}});
    for (const auto* key : {"b.1", "b.2", "b.3", "b.4"}) {
        CHECK(config->get_bool(key, false));
    }
    for (const auto* key : {"b.5", "b.6", "b.7", "b.8"}) {
        CHECK_FALSE(config->get_bool(key, true));
    }
}

TEST_CASE("config: ${key} in a value follows the overridden key") {
    loupe::test::TempDir dir;
    const auto path = write_properties(dir,
                                       "zzref.dir = ./data\n"
                                       "zzref.url = sqlite:${zzref.dir}/loupe.db\n"
                                       "zzref.broken = ${zzref.unknown}\n"
                                       "zzref.loop = ${zzref.loop}\n");
    CHECK(Config::load(path, {})->get_string("zzref.url", "") == "sqlite:./data/loupe.db");
    ScopedEnv env("LOUPE_ZZREF_DIR", "/var/lib/loupe");
    const auto config = Config::load(path, {});
    CHECK(config->get_string("zzref.url", "") == "sqlite:/var/lib/loupe/loupe.db");
    CHECK(error_of([&] { config->find("zzref.broken"); }).find("zzref.unknown") !=
          std::string::npos);
    CHECK(error_of([&] { config->find("zzref.loop"); }).find("zzref.loop") != std::string::npos);
}

TEST_CASE("config: keys lists the file's and the overrides' keys, sorted") {
    loupe::test::TempDir dir;
    const auto path = write_properties(dir, "b.two = 2\na = 1\nb.one = 1\nb = 0\n");
    const auto keys = Config::load(path, {{"c.set", "x"}, {"a", "9"}})->keys();
    CHECK(keys == std::vector<std::string>{"a", "b", "b.one", "b.two", "c.set"});
}

TEST_CASE("config: default_config_path finds etc/ next to the executable's folder") {
    namespace fs = std::filesystem;
    if (fs::is_regular_file("etc/loupe.properties")) {
        CHECK(fs::equivalent(loupe::default_config_path("/nowhere/bin/loupe"),
                             "etc/loupe.properties"));
        return;
    }
    loupe::test::TempDir dir;
    fs::create_directories(fs::path(dir.path()) / "bin");
    fs::create_directories(fs::path(dir.path()) / "etc");
    std::ofstream(fs::path(dir.path()) / "etc" / "loupe.properties") << "http.port = 1\n";
    const auto executable = (fs::path(dir.path()) / "bin" / "loupe").string();
    CHECK(fs::equivalent(loupe::default_config_path(executable),
                         fs::path(dir.path()) / "etc" / "loupe.properties"));
}
