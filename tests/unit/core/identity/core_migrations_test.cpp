#include <doctest/doctest.h>

#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

TEST_CASE("the core track creates the identity tables, the job queue and blob holders, once") {
    test::TestDatabase test_database;
    auto database = open_database(test_database.url(), 2);
    test::SilentLogger logger;

    const auto track = core_migration_track();
    CHECK(track.plugin == "core");
    REQUIRE(track.steps.size() == 6);
    CHECK(track.steps[0].name == "identity");
    CHECK(track.steps[1].name == "jobs");
    CHECK(track.steps[2].name == "blob holders");
    CHECK(track.steps[3].name == "tokens bound to a CI run's branch");
    CHECK(track.steps[4].name == "user email addresses");
    CHECK(track.steps[5].name == "personal access token names");

    const auto applied = run_migrations(*database, {track}, logger);
    REQUIRE(applied.size() == 6);
    CHECK(applied[0].version == 1);
    CHECK(applied[1].version == 2);
    CHECK(applied[2].version == 3);
    CHECK(applied[3].version == 4);
    CHECK(applied[4].version == 5);
    CHECK(applied[5].version == 6);
    CHECK(run_migrations(*database, {core_migration_track()}, logger).empty());

    auto session = database->session();
    for (const char* table : {"users", "accounts", "team_members", "projects", "project_users",
                              "tokens", "token_scopes", "jobs", "blob_holders"}) {
        CAPTURE(table);
        long long rows = -1;
        *session << std::string("SELECT COUNT(*) FROM ") + table, soci::into(rows);
        CHECK(rows == 0);
    }
    // A personal access token's name (the settings page).
    long long named = -1;
    *session << "SELECT COUNT(*) FROM tokens WHERE name IS NOT NULL", soci::into(named);
    CHECK(named == 0);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "new projects get Argos's defaults from the schema") {
    const auto account = identity.create_user("alice", "Alice");
    execute(
        "INSERT INTO projects (account_id, name, name_key, created_at) VALUES "
        "(:account, 'raw', 'raw', 1)",
        account.account_id);
    auto session = database->session();
    std::string branch, summary, deployment_auth;
    int is_private = -1, pr_comment = -1, oidc = -1, tokenless = -1, deployment = -1, ignore = -1,
        auto_ignore = -1;
    soci::indicator level = soci::i_ok;
    std::string level_text;
    *session << "SELECT default_base_branch, summary_check, deployment_auth, is_private, "
                "pr_comment_enabled, github_actions_oidc_enabled, tokenless_auth_enabled, "
                "deployment_enabled, ignore_enabled, auto_ignore_changes, default_user_level "
                "FROM projects WHERE name = 'raw'",
        soci::into(branch), soci::into(summary), soci::into(deployment_auth),
        soci::into(is_private), soci::into(pr_comment), soci::into(oidc), soci::into(tokenless),
        soci::into(deployment), soci::into(ignore), soci::into(auto_ignore),
        soci::into(level_text, level);
    CHECK(branch == "main");
    CHECK(summary == "auto");
    CHECK(deployment_auth == "domain-private");
    CHECK(is_private == 1);
    CHECK(pr_comment == 1);
    CHECK(oidc == 0);
    CHECK(tokenless == 0);
    CHECK(deployment == 1);
    CHECK(ignore == 1);
    CHECK(auto_ignore == 3);
    CHECK(level == soci::i_null);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "the schema refuses inconsistent rows") {
    const auto alice = identity.create_user("alice", "Alice");
    // A personal access token needs its user; a project token its project.
    CHECK_THROWS(
        execute("INSERT INTO tokens (kind, token_hash, prefix, created_at) VALUES "
                "('personal', 'h1', 'arp_', 1)"));
    CHECK_THROWS(
        execute("INSERT INTO tokens (kind, token_hash, prefix, user_id, created_at) "
                "VALUES ('project', 'h2', 'argos_', :user, 1)",
                alice.id));
    CHECK_THROWS(
        execute("INSERT INTO team_members (account_id, user_id, role, created_at) "
                "VALUES (:account, :user, 'boss', 1)",
                alice.account_id, alice.id));
    // Deleting a user takes their personal account, memberships and tokens along.
    identity.create_personal_token("alice", {}, std::nullopt);
    execute("DELETE FROM users WHERE id = :id", alice.id);
    CHECK_FALSE(identity.find_account("alice").has_value());
    CHECK(identity.list_tokens().empty());
}

}  // namespace
}  // namespace loupe
