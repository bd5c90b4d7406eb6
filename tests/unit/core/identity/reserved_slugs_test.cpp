// Account and user slugs that name the server's own paths are refused when they are created:
// the page "/{slug}" of such an account would never be served ("/v2", "/d", "/healthz"...).
#include <doctest/doctest.h>

#include "support/build_paths.hpp"
#include "support/server_process.hpp"

namespace {

constexpr const char* all_plugins =
    "auth,builds,reviews,deployments,web,analytics,git,sso,oauth,automation,notifications,media";

struct Admin {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;

    int run(std::vector<std::string> words, std::string& out) const {
        std::vector<std::string> args{
            "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
            "--set",    "db.url=" + database.url(),
            "--set",    "data.dir=" + data.path(),
            "--set",    "plugins.path=" + loupe::test::tested_plugin_dir(),
            "--set",    std::string("plugins.enabled=") + all_plugins,
            "admin"};
        args.insert(args.end(), words.begin(), words.end());
        return loupe::test::run_loupe(args, out);
    }
};

}  // namespace

TEST_CASE("slugs of the server's own paths are refused for users and team accounts") {
    const Admin admin;
    std::string out;
    REQUIRE(admin.run({"user", "create", "--slug", "alice", "--name", "Alice"}, out) == 0);

    // The API prefix, the core's routes and the plugins' (taken from the route table): four
    // as users (a user's slug is its personal account's), four as team accounts.
    for (const std::string slug : {"v2", "healthz", "d", "projects"}) {
        INFO(slug);
        CHECK(admin.run({"user", "create", "--slug", slug, "--name", "Someone"}, out) == 1);
        CHECK(out.find("Slug \"" + slug + "\" is reserved: /" + slug +
                       " is one of the server's own paths") != std::string::npos);
    }
    for (const std::string slug : {"readyz", "metrics", "uploads", "builds"}) {
        INFO(slug);
        CHECK(admin.run({"account", "create", "--slug", slug, "--name", "Team", "--owner", "alice"},
                        out) == 1);
        CHECK(out.find("Slug \"" + slug + "\" is reserved") != std::string::npos);
    }
    // Nothing was created: the list has alice alone.
    REQUIRE(admin.run({"user", "list", "--json"}, out) == 0);
    CHECK(out.find("\"slug\":\"alice\"") != std::string::npos);
    CHECK(out.find("\"slug\":\"v2\"") == std::string::npos);
    CHECK(out.find("\"slug\":\"d\"") == std::string::npos);

    // A slug that only starts like one of them is an ordinary slug.
    CHECK(admin.run({"account", "create", "--slug", "docs", "--name", "Docs", "--owner", "alice"},
                    out) == 0);
}
