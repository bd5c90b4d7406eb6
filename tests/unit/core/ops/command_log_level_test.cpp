// A one-shot command (`loupe admin ...`) answers without the server's info lines (plugins
// installed, migrations applied) unless asked for them.
#include <doctest/doctest.h>

#include "support/build_paths.hpp"
#include "support/server_process.hpp"

namespace {

struct Command {
    int status = -1;
    std::string out;
};

Command admin_user_list(const loupe::test::TestDatabase& database, const loupe::test::TempDir& data,
                        std::vector<std::string> extra = {},
                        std::map<std::string, std::string> environment = {}) {
    std::vector<std::string> args{
        "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
        "--set",    "db.url=" + database.url(),
        "--set",    "data.dir=" + data.path(),
        "--set",    "plugins.path=" + loupe::test::tested_plugin_dir()};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const char* word : {"admin", "user", "list"}) {
        args.emplace_back(word);
    }
    Command command;
    command.status = loupe::test::run_loupe(args, command.out, environment);
    return command;
}

}  // namespace

TEST_CASE("an admin command logs warnings only, unless log.level is asked for") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;

    // The configuration file says log.level = info: that is the server's.
    const Command quiet = admin_user_list(database, data);
    INFO(quiet.out);
    CHECK(quiet.status == 0);
    CHECK(quiet.out.find("event=plugin.installed") == std::string::npos);
    CHECK(quiet.out.find("level=info") == std::string::npos);

    const Command asked = admin_user_list(database, data, {"--set", "log.level=info"});
    CHECK(asked.status == 0);
    CHECK(asked.out.find("event=plugin.installed") != std::string::npos);

    const Command from_environment =
        admin_user_list(database, data, {}, {{"LOUPE_LOG_LEVEL", "info"}});
    CHECK(from_environment.status == 0);
    CHECK(from_environment.out.find("event=plugin.installed") != std::string::npos);
}
