#include <doctest/doctest.h>

#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

std::string describe(const Permissions& p) {
    std::string text;
    for (auto [granted, name] :
         {std::pair{p.admin, "admin"}, std::pair{p.review, "review"},
          std::pair{p.review_dismiss, "review_dismiss"},
          std::pair{p.view_settings, "view_settings"}, std::pair{p.view, "view"}}) {
        if (granted) {
            text += (text.empty() ? "" : ",") + std::string(name);
        }
    }
    return text;
}

const std::string all = "admin,review,review_dismiss,view_settings,view";

/// Team acme (owner olga, member max, contributors cora and dan) with projects web and api;
/// alice has a personal account with project notes; stan is staff; nina belongs to nothing.
struct PermissionsFixture : test::IdentityFixture {
    User olga = identity.create_user("olga", "Olga");
    User max = identity.create_user("max", "Max");
    User cora = identity.create_user("cora", "Cora");
    User dan = identity.create_user("dan", "Dan");
    User alice = identity.create_user("alice", "Alice");
    User nina = identity.create_user("nina", "Nina");
    User stan = identity.create_user("stan", "Stan", true);
    Account acme = identity.create_team("acme", "Acme", "olga");
    Project web = identity.create_project("acme", "web", "main").first;
    Project api = identity.create_project("acme", "api", "main").first;
    Project notes = identity.create_project("alice", "notes", "main").first;

    PermissionsFixture() {
        identity.add_member("acme", "max", Role::member);
        identity.add_member("acme", "cora", Role::contributor);
        identity.add_member("acme", "dan", Role::contributor);
    }

    void grant(const User& user, const Project& project, const std::string& level) {
        execute(
            "INSERT INTO project_users (project_id, user_id, level, created_at) VALUES "
            "(:project, :user, :level, 1)",
            project.id, user.id, level);
    }
    Project reload(const Project& project) { return *identity.find_project(project.id); }
    std::string permissions(const User& user, const Project& project) {
        return describe(identity.permissions(user.id, reload(project)));
    }
    std::vector<std::string> visible(const User& user, const Account& account) {
        std::vector<std::string> names;
        for (const auto& project : identity.visible_projects(user.id, account)) {
            names.push_back(project.name);
        }
        return names;
    }
};

TEST_CASE_FIXTURE(PermissionsFixture, "project permissions: by team role and project level") {
    CHECK(permissions(stan, web) == all);
    CHECK(permissions(stan, notes) == all);
    CHECK(permissions(alice, notes) == all);
    CHECK(permissions(olga, notes) == "");
    CHECK(permissions(olga, web) == all);
    CHECK(permissions(max, web) == all);
    CHECK(permissions(cora, web) == "");
    CHECK(permissions(nina, web) == "");

    grant(cora, web, "admin");
    grant(dan, web, "reviewer");
    CHECK(permissions(cora, web) == all);
    CHECK(permissions(dan, web) == "review,view_settings,view");
    CHECK(permissions(cora, api) == "");

    execute("UPDATE projects SET default_user_level = 'viewer' WHERE id = :id", api.id);
    CHECK(permissions(cora, api) == "view_settings,view");
    grant(dan, api, "reviewer");  // an explicit level wins over the default
    CHECK(permissions(dan, api) == "review,view_settings,view");
    CHECK(permissions(nina, api) == "");  // the default level is for contributors only

    execute("UPDATE projects SET is_private = 0 WHERE id IN (:web, :notes)", web.id, notes.id);
    CHECK(permissions(nina, web) == "view");
    CHECK(permissions(olga, notes) == "view");
    CHECK(identity.permissions(nina.id + 1000, reload(web)).view);  // anyone sees public ones
    CHECK(describe(identity.permissions(nina.id + 1000, reload(api))) == "");
}

TEST_CASE_FIXTURE(PermissionsFixture, "who may administer an account") {
    const Account alice_account = *identity.find_account("alice");
    CHECK(identity.can_administer(stan.id, acme));
    CHECK(identity.can_administer(olga.id, acme));
    CHECK_FALSE(identity.can_administer(max.id, acme));
    CHECK_FALSE(identity.can_administer(cora.id, acme));
    CHECK_FALSE(identity.can_administer(nina.id, acme));
    CHECK(identity.can_administer(alice.id, alice_account));
    CHECK_FALSE(identity.can_administer(olga.id, alice_account));
    CHECK(identity.can_administer(stan.id, alice_account));
}

TEST_CASE_FIXTURE(PermissionsFixture,
                  "visible projects: by account kind, team role and project level") {
    using Names = std::vector<std::string>;
    const Account alice_account = *identity.find_account("alice");
    // api was created after web: most recently active first.
    CHECK(visible(olga, acme) == Names{"api", "web"});
    CHECK(visible(max, acme) == Names{"api", "web"});
    CHECK(visible(stan, acme) == Names{"api", "web"});
    CHECK(visible(cora, acme).empty());
    CHECK(visible(nina, acme).empty());
    CHECK(visible(alice, alice_account) == Names{"notes"});
    CHECK(visible(olga, alice_account).empty());
    CHECK(visible(stan, alice_account) == Names{"notes"});

    grant(cora, web, "viewer");
    CHECK(visible(cora, acme) == Names{"web"});
    execute("UPDATE projects SET default_user_level = 'reviewer' WHERE id = :id", api.id);
    CHECK(visible(cora, acme) == Names{"api", "web"});
    CHECK(visible(dan, acme) == Names{"api"});
}

TEST_CASE_FIXTURE(PermissionsFixture, "activity moves a project to the front") {
    using Names = std::vector<std::string>;
    execute("UPDATE projects SET created_at = :at WHERE id = :id", int64_t{1000}, web.id);
    execute("UPDATE projects SET created_at = :at WHERE id = :id", int64_t{2000}, api.id);
    CHECK(visible(olga, acme) == Names{"api", "web"});
    database->transaction(
        [&](soci::session& session) { identity.touch_project(session, web.id, 3000); });
    CHECK(visible(olga, acme) == Names{"web", "api"});
    database->transaction(  // an older activity never moves a project back
        [&](soci::session& session) { identity.touch_project(session, web.id, 1500); });
    CHECK(visible(olga, acme) == Names{"web", "api"});
    database->transaction(
        [&](soci::session& session) { identity.touch_project(session, api.id, 4000); });
    CHECK(visible(olga, acme) == Names{"api", "web"});
}

}  // namespace
}  // namespace loupe
