// Who a provider's verified identity signs in as, and the team roles its groups give, on a real
// database (SQLite, or PostgreSQL with LOUPE_TEST_POSTGRES_URL).
#include "sign_in/sign_in_user.hpp"

#include <doctest/doctest.h>

#include "../../core/identity/identity_fixture.hpp"
#include "store/sso_migrations.hpp"

namespace {

class CollectedMigrations final : public loupe::Migrations {
public:
    void add(int version, std::string name, std::string sql) override {
        track.steps.push_back({version, std::move(name), std::move(sql)});
    }
    loupe::MigrationTrack track{"sso", {}};
};

struct SsoFixture : loupe::test::IdentityFixture {
    SsoFixture() {
        CollectedMigrations migrations;
        loupe::sso::add_migrations(migrations);
        loupe::test::SilentLogger logger;
        loupe::run_migrations(*database, {loupe::core_migration_track(), migrations.track}, logger);
        owner = identity.create_user("olga", "Olga");
        team = identity.create_team("acme", "Acme", "olga");
    }

    loupe::sso::SignedInUser sign_in(const loupe::sso::SignInIdentity& person,
                                     const loupe::sso::RoleMapping& roles = {}) {
        return database->transaction([&](soci::session& session) {
            return loupe::sso::sign_in_user(session, identity, "corp", person, roles, 1000);
        });
    }

    std::optional<loupe::Role> role_of(int64_t user_id) {
        auto session = database->session();
        return identity.member_role(*session, team, user_id);
    }

    loupe::User owner;
    loupe::Account team;
};

const loupe::sso::RoleMapping acme_roles{
    {"design", {"acme", loupe::Role::member}},
    {"leads", {"acme", loupe::Role::owner}},
    {"ghosts", {"no-such-team", loupe::Role::member}},
};

}  // namespace

using loupe::Role;
using loupe::sso::SignInIdentity;

TEST_CASE_FIXTURE(SsoFixture, "sso sign-in: a first sign-in creates the user from the address") {
    const auto first = sign_in({"sub-1", "Alice.Smith@Example.com", "Alice Smith", {}});
    CHECK(first.created);
    const auto user = identity.find_user(first.user_id);
    REQUIRE(user);
    CHECK(user->slug == "alice-smith");
    CHECK(user->name == "Alice Smith");
    {
        auto session = database->session();
        CHECK(identity.user_email(*session, first.user_id) == "alice.smith@example.com");
    }
    // The same subject again: the same user, nothing created.
    const auto again = sign_in({"sub-1", "alice.smith@example.com", "", {}});
    CHECK_FALSE(again.created);
    CHECK(again.user_id == first.user_id);

    // Another person whose address makes the same slug gets the next free one; a name the
    // display-name rules refuse falls back to the slug.
    const auto other = sign_in({"sub-2", "alice-smith@example.org", "   ", {}});
    CHECK(identity.find_user(other.user_id)->slug == "alice-smith-2");
    CHECK(identity.find_user(other.user_id)->name == "alice-smith-2");
}

TEST_CASE_FIXTURE(SsoFixture, "sso sign-in: an existing user with the verified address is linked") {
    const auto existing = identity.create_user("bob", "Bob");
    {
        auto session = database->session();
        identity.set_user_email(*session, existing.id, "bob@example.com");
    }
    const auto signed_in = sign_in({"sub-bob", "BOB@example.com", "Robert", {}});
    CHECK_FALSE(signed_in.created);
    CHECK(signed_in.user_id == existing.id);
    // Linked by subject from now on, even after the address changed at the provider.
    const auto renamed = sign_in({"sub-bob", "robert@example.com", "Robert", {}});
    CHECK(renamed.user_id == existing.id);
    auto session = database->session();
    CHECK(identity.user_email(*session, existing.id) == "robert@example.com");
    // An address another user holds is not taken from them.
    CHECK(loupe::test::refusal_of([&] {
              identity.set_user_email(*session, owner.id, "robert@example.com");
          }).status == 409);
}

TEST_CASE_FIXTURE(SsoFixture, "sso sign-in: groups give, change and take away team roles") {
    const SignInIdentity carol{"sub-carol", "carol@example.com", "Carol", {"design"}};
    const auto joined = sign_in(carol, acme_roles);
    CHECK(role_of(joined.user_id) == Role::member);
    CHECK(joined.notes ==
          std::vector<std::string>{"the role mapping names \"no-such-team\", which is no team"});

    auto promoted = carol;
    promoted.groups = {"design", "leads"};
    sign_in(promoted, acme_roles);
    CHECK(role_of(joined.user_id) == Role::owner);

    auto left = carol;
    left.groups = {"unrelated"};
    sign_in(left, acme_roles);
    CHECK_FALSE(role_of(joined.user_id).has_value());

    // Teams the mapping does not name are left alone.
    const auto other_team = identity.create_team("other", "Other", "olga");
    {
        auto session = database->session();
        identity.set_member_role(*session, other_team, joined.user_id, Role::member);
    }
    sign_in(left, acme_roles);
    auto session = database->session();
    CHECK(identity.member_role(*session, other_team, joined.user_id) == Role::member);
}

TEST_CASE_FIXTURE(SsoFixture, "sso sign-in: the team's last owner is never removed by a mapping") {
    {
        auto session = database->session();
        identity.set_user_email(*session, owner.id, "olga@example.com");
    }
    const auto signed_in = sign_in({"sub-olga", "olga@example.com", "Olga", {}}, acme_roles);
    CHECK(signed_in.user_id == owner.id);
    CHECK(role_of(owner.id) == Role::owner);
    CHECK(std::ranges::find(signed_in.notes, "kept owner of acme: the team's last owner") !=
          signed_in.notes.end());
}
