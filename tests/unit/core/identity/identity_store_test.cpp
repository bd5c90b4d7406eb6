#include <doctest/doctest.h>

#include "auth/token_format.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

using test::admin_error_of;
using test::Refusal;
using test::refusal_of;

const std::string no_account_access =
    "You do not have access to this account. Check that your personal access token is scoped "
    "to it.";

Principal project_principal(const Project& project) {
    Principal principal;
    principal.kind = Principal::Kind::project;
    principal.project_id = project.id;
    principal.project_account_id = project.account_id;
    return principal;
}

Principal user_principal(const User& user, std::vector<AccountRef> scope) {
    Principal principal;
    principal.kind = Principal::Kind::user;
    principal.user_id = user.id;
    principal.scope = std::move(scope);
    return principal;
}

TEST_CASE_FIXTURE(test::IdentityFixture, "users come with a personal account of the same slug") {
    CHECK_FALSE(identity.has_any_user());
    const User alice = identity.create_user("alice", "  Alice Liddell ");
    CHECK(identity.has_any_user());
    CHECK(alice.slug == "alice");
    CHECK(alice.name == "Alice Liddell");
    CHECK_FALSE(alice.staff);

    const auto account = identity.find_account("alice");
    REQUIRE(account.has_value());
    CHECK(account->id == alice.account_id);
    CHECK(account->kind == AccountKind::user);
    CHECK(account->user_id == alice.id);

    const auto by_slug = identity.find_user("alice");
    const auto by_id = identity.find_user(alice.id);
    REQUIRE(by_slug.has_value());
    REQUIRE(by_id.has_value());
    CHECK(by_slug->id == alice.id);
    CHECK(by_id->account_id == alice.account_id);
    CHECK_FALSE(identity.find_user("nobody").has_value());
    CHECK_FALSE(identity.find_user(alice.id + 1000).has_value());

    CHECK(identity.user_ref(alice.id) == Json{{"id", std::to_string(alice.account_id)},
                                              {"slug", "alice"},
                                              {"name", "Alice Liddell"}});
    CHECK(identity.user_ref(alice.id + 1000).is_null());
}

TEST_CASE_FIXTURE(test::IdentityFixture, "slugs and names are validated") {
    const std::string slug_rule = "use 1 to 48 lower-case letters, digits and dashes";
    CHECK(admin_error_of([&] { identity.create_user("Alice", "A"); }) ==
          "Invalid slug \"Alice\": " + slug_rule);
    CHECK(admin_error_of([&] { identity.create_user("", "A"); }) ==
          "Invalid slug \"\": " + slug_rule);
    CHECK(admin_error_of([&] { identity.create_user("a_b", "A"); }) ==
          "Invalid slug \"a_b\": " + slug_rule);
    CHECK(admin_error_of([&] { identity.create_user(std::string(49, 'a'), "A"); }) != "");
    CHECK(admin_error_of([&] { identity.create_user(std::string(48, 'a'), "A"); }) == "");
    CHECK(admin_error_of([&] { identity.create_user("bob", "   "); }) == "Name must not be empty");
    CHECK(admin_error_of([&] { identity.create_team("team", "T", "nobody"); }) ==
          "No user with slug \"nobody\"");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "users and accounts share one slug namespace") {
    identity.create_user("alice", "Alice");
    identity.create_team("acme", "Acme", "alice");
    const std::string taken = " is already used by another user or account";
    CHECK(admin_error_of([&] { identity.create_user("alice", "Again"); }) ==
          "Slug \"alice\"" + taken);
    CHECK(admin_error_of([&] { identity.create_user("acme", "Acme user"); }) ==
          "Slug \"acme\"" + taken);
    CHECK(admin_error_of([&] { identity.create_team("alice", "Team", "alice"); }) ==
          "Slug \"alice\"" + taken);
    // The refused user left nothing behind.
    CHECK_FALSE(identity.find_user("acme").has_value());
    CHECK(identity.list_users().size() == 1);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "team memberships") {
    const User alice = identity.create_user("alice", "Alice");
    const User bob = identity.create_user("bob", "Bob");
    const Account acme = identity.create_team("acme", "Acme", "alice");
    CHECK(acme.kind == AccountKind::team);
    CHECK(identity.can_administer(alice.id, acme));
    CHECK_FALSE(identity.can_administer(bob.id, acme));

    identity.add_member("acme", "bob", Role::owner);
    CHECK(identity.can_administer(bob.id, acme));
    identity.add_member("acme", "bob", Role::member);  // a second add changes the role
    CHECK_FALSE(identity.can_administer(bob.id, acme));

    CHECK(admin_error_of([&] { identity.add_member("acme", "alice", Role::member); }) ==
          "Account \"acme\" must keep at least one owner");
    CHECK(identity.can_administer(alice.id, acme));
    CHECK(admin_error_of([&] { identity.add_member("alice", "bob", Role::member); }) ==
          "Account \"alice\" is a personal account: only teams have members");
    CHECK(admin_error_of([&] { identity.add_member("nope", "bob", Role::member); }) ==
          "No account with slug \"nope\"");
    CHECK(admin_error_of([&] { identity.add_member("acme", "nope", Role::member); }) ==
          "No user with slug \"nope\"");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "project names follow Argos's rules") {
    identity.create_user("alice", "Alice");
    identity.create_team("acme", "Acme", "alice");
    const auto [project, token] = identity.create_project("acme", " Web.App_1-x ", "develop");
    CHECK(project.name == "Web.App_1-x");
    CHECK(project.account_slug == "acme");
    CHECK(project.default_base_branch == "develop");
    CHECK(token.token.size() == 40);
    CHECK(token.token.starts_with("argos_"));

    CHECK(admin_error_of([&] { identity.create_project("acme", "web.app_1-X", "main"); }) ==
          "Name is already used by another project");
    CHECK(admin_error_of([&] { identity.create_project("acme", "new", "main"); }) ==
          "Name is reserved for internal usage");
    CHECK(admin_error_of([&] { identity.create_project("acme", "settings", "main"); }) ==
          "Name is reserved for internal usage");
    CHECK(admin_error_of([&] { identity.create_project("acme", "New", "main"); }) == "");
    CHECK(admin_error_of([&] { identity.create_project("acme", "a b", "main"); }) ==
          "Invalid project name \"a b\": Project name can only contain letters, numbers, dots, "
          "hyphens and underscores.");
    CHECK(admin_error_of([&] { identity.create_project("acme", "  ", "main"); }) ==
          "Invalid project name \"\": Too small: expected string to have >=1 characters");
    CHECK(admin_error_of([&] {
              identity.create_project("acme", std::string(101, 'a'), "main");
          }).find("Too big") != std::string::npos);
    CHECK(admin_error_of([&] { identity.create_project("acme", std::string(100, 'a'), "main"); }) ==
          "");
    CHECK(admin_error_of([&] { identity.create_project("acme", "x", "a branch"); }) != "");
    CHECK(admin_error_of([&] { identity.create_project("nope", "x", "main"); }) ==
          "No account with slug \"nope\"");
    // Another account may use the same name.
    CHECK(admin_error_of([&] { identity.create_project("alice", "web.app_1-x", "main"); }) == "");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "create_project on the caller's session") {
    identity.create_user("alice", "Alice");
    const Account acme = identity.create_team("acme", "Acme", "alice");
    const auto [project, token] = database->transaction(
        [&](soci::session& session) { return identity.create_project(session, acme, "Web", ""); });
    CHECK(project.default_base_branch == "main");
    CHECK(project.account_id == acme.id);
    CHECK(token.token.size() == 40);
    CHECK(refusal_of([&] {
              database->transaction([&](soci::session& session) {
                  identity.create_project(session, acme, "WEB", "main");
              });
          }) == Refusal{409, "Name is already used by another project"});
    CHECK(identity.find_project("acme", "Web").has_value());
    CHECK_FALSE(identity.find_project("acme", "WEB").has_value());  // lookups are exact
    CHECK(identity.find_project(project.id)->name == "Web");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "project_json: identity fields, then plugins' fields") {
    identity.create_user("alice", "Alice");
    const Account acme = identity.create_team("acme", "Acme", "alice");
    const auto [project, token] = identity.create_project("acme", "web", "develop");
    const Json expected = {
        {"id", std::to_string(project.id)},
        {"account", {{"id", std::to_string(acme.id)}, {"slug", "acme"}}},
        {"name", "web"},
        {"defaultBaseBranch", "develop"},
        {"hasRemoteContentAccess", false},
        {"private", true},
        {"defaultUserLevel", nullptr},
    };
    CHECK(identity.project_json(project) == expected);

    execute("UPDATE projects SET default_user_level = 'viewer', is_private = 0 WHERE id = :id",
            project.id);
    const Json changed = identity.project_json(*identity.find_project(project.id));
    CHECK(changed["defaultUserLevel"] == "viewer");
    CHECK(changed["private"] == false);

    // Each writer is called once per batch, with the projects and their resources in step.
    int calls = 0;
    identity.set_project_field_writers(
        {[&](soci::session&, const std::vector<Project>& projects, std::vector<Json>& resources) {
            ++calls;
            REQUIRE(projects.size() == resources.size());
            for (std::size_t i = 0; i < projects.size(); ++i) {
                resources[i]["nameTwice"] = projects[i].name + projects[i].name;
            }
        }});
    const Project api = identity.create_project("acme", "api", "main").first;
    const auto both = identity.projects_json({project, api});
    CHECK(calls == 1);
    CHECK(both[0]["nameTwice"] == "webweb");
    CHECK(both[1]["nameTwice"] == "apiapi");
    CHECK(both[1]["name"] == "api");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "authorize_project: token scope, then existence") {
    const User alice = identity.create_user("alice", "Alice");
    identity.create_team("acme", "Acme", "alice");
    const Project web = identity.create_project("acme", "web", "main").first;
    const Project api = identity.create_project("acme", "api", "main").first;
    const Account acme = *identity.find_account("acme");

    CHECK(identity.authorize_project(project_principal(web), "acme", "web").id == web.id);
    const Refusal unauthorized{401, "Unauthorized"};
    CHECK(refusal_of([&] { identity.authorize_project(project_principal(web), "acme", "api"); }) ==
          unauthorized);
    CHECK(refusal_of([&] { identity.authorize_project(project_principal(web), "acme", "nope"); }) ==
          unauthorized);

    const Principal scoped = user_principal(alice, {{acme.id, "acme"}});
    CHECK(identity.authorize_project(scoped, "acme", "api").id == api.id);
    CHECK(refusal_of([&] { identity.authorize_project(scoped, "acme", "nope"); }) ==
          Refusal{404, "Not found"});
    const Principal personal_only = user_principal(alice, {{alice.account_id, "alice"}});
    CHECK(refusal_of([&] { identity.authorize_project(personal_only, "acme", "web"); }) ==
          unauthorized);
    CHECK(refusal_of([&] { identity.authorize_project(personal_only, "acme", "nope"); }) ==
          unauthorized);
    CHECK(refusal_of([&] { identity.authorize_project(Principal{}, "acme", "web"); }) ==
          unauthorized);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "authorize_account: only accounts in the token's scope") {
    const User alice = identity.create_user("alice", "Alice");
    const Account acme = identity.create_team("acme", "Acme", "alice");
    const Project web = identity.create_project("acme", "web", "main").first;
    const Principal scoped = user_principal(alice, {{acme.id, "acme"}});

    CHECK(identity.authorize_account(scoped, "acme").id == acme.id);
    CHECK(refusal_of([&] { identity.authorize_account(scoped, "alice"); }) ==
          Refusal{401, no_account_access});
    CHECK(refusal_of([&] { identity.authorize_account(scoped, "missing"); }) ==
          Refusal{401, no_account_access});
    CHECK(refusal_of([&] { identity.authorize_account(project_principal(web), "acme"); }) ==
          Refusal{401, "Unauthorized"});
}

TEST_CASE_FIXTURE(test::IdentityFixture, "personal access tokens: scope and expiry") {
    identity.create_user("alice", "Alice");
    identity.create_user("bob", "Bob");
    identity.create_team("acme", "Acme", "alice");

    const auto token = identity.create_personal_token("alice", {"acme", "alice"}, std::nullopt);
    CHECK(token.token.size() == 40);
    CHECK(token.token.starts_with("arp_"));
    CHECK(detect_token_kind(token.token) == TokenKind::personal);

    CHECK(admin_error_of([&] { identity.create_personal_token("bob", {"acme"}, std::nullopt); }) ==
          "User \"bob\" does not belong to account \"acme\"");
    CHECK(admin_error_of([&] { identity.create_personal_token("bob", {"alice"}, std::nullopt); }) ==
          "User \"bob\" does not belong to account \"alice\"");
    CHECK(admin_error_of([&] { identity.create_personal_token("bob", {"nope"}, std::nullopt); }) ==
          "No account with slug \"nope\"");
    CHECK(admin_error_of([&] { identity.create_personal_token("nobody", {}, std::nullopt); }) ==
          "No user with slug \"nobody\"");
    CHECK(admin_error_of([&] { identity.create_personal_token("bob", {}, now_ms() - 1); }) ==
          "The expiry of a token must be in the future");
    identity.add_member("acme", "bob", Role::contributor);
    CHECK(admin_error_of(
              [&] { identity.create_personal_token("bob", {"acme"}, now_ms() + 1000); }) == "");
}

TEST_CASE_FIXTURE(test::IdentityFixture, "token listing and revocation by prefix") {
    identity.create_user("alice", "Alice");
    identity.create_team("acme", "Acme", "alice");
    const auto [web, project_token] = identity.create_project("acme", "web", "main");
    const int64_t expires = now_ms() + 3'600'000;
    const auto pat = identity.create_personal_token("alice", {"acme"}, expires);
    const auto live = identity.issue_short_lived_token(web.id, 600'000, RunBinding());
    const auto expired = identity.issue_short_lived_token(web.id, 600'000, RunBinding());
    execute("UPDATE tokens SET expires_at = 1 WHERE id = :id", expired.id);

    auto tokens = identity.list_tokens();
    REQUIRE(tokens.size() == 3);  // the expired short-lived token is not listed
    CHECK(tokens[0].kind == "project");
    CHECK(tokens[0].owner == "acme/web");
    CHECK(tokens[0].prefix == token_prefix(project_token.token));
    CHECK_FALSE(tokens[0].expires_at.has_value());
    CHECK(tokens[1].kind == "personal");
    CHECK(tokens[1].owner == "alice");
    CHECK(tokens[1].expires_at == expires);
    CHECK(tokens[2].kind == "short_lived");
    CHECK(tokens[2].id == live.id);
    CHECK(live.token.size() == 50);

    CHECK(admin_error_of([&] { identity.revoke_tokens("argos_"); }).find("too short") !=
          std::string::npos);
    CHECK(admin_error_of([&] {
              identity.revoke_tokens("argos_A%'--");
          }).find("never appear in a token") != std::string::npos);
    CHECK(identity.revoke_tokens(token_prefix(pat.token)) == 1);
    CHECK(identity.revoke_tokens(token_prefix(pat.token)) == 0);  // already revoked
    CHECK(identity.revoke_tokens(project_token.token) == 1);      // a whole token
    CHECK(identity.revoke_tokens("argos_" + std::string(34, 'z')) == 0);
    tokens = identity.list_tokens();
    CHECK(tokens[0].revoked);
    CHECK(tokens[1].revoked);
    CHECK_FALSE(tokens[2].revoked);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "issuing short-lived tokens prunes the expired ones") {
    identity.create_user("alice", "Alice");
    const Project web = identity.create_project("alice", "web", "main").first;
    const auto first = identity.issue_short_lived_token(web.id, 600'000, RunBinding("c0ffee"));
    execute("UPDATE tokens SET expires_at = 1 WHERE id = :id", first.id);
    identity.issue_short_lived_token(web.id, 600'000, RunBinding());
    auto session = database->session();
    long long rows = 0;
    *session << "SELECT COUNT(*) FROM tokens WHERE kind = 'short_lived'", soci::into(rows);
    CHECK(rows == 1);
}

}  // namespace
}  // namespace loupe
