// Users' email addresses: set by `loupe admin` (validated) or a sign-in, kept lower-cased, one
// user per address.
#include "identity_fixture.hpp"

using loupe::AdminError;

TEST_CASE_FIXTURE(loupe::test::IdentityFixture, "user email: create, change, refuse") {
    const auto alice = identity.create_user("alice", "Alice", false, "Alice@Example.com");
    {
        auto session = database->session();
        CHECK(identity.user_email(*session, alice.id) == "alice@example.com");
        CHECK(identity.find_user_by_email(*session, "ALICE@example.com")->id == alice.id);
        CHECK_FALSE(identity.find_user_by_email(*session, "bob@example.com").has_value());
    }
    CHECK(identity.set_user_email("alice", "alice@corp.example") == "alice@corp.example");

    identity.create_user("bob", "Bob");
    CHECK_THROWS_WITH_AS(identity.set_user_email("bob", "alice@corp.example"),
                         "The address alice@corp.example belongs to another user", AdminError);
    for (const char* bad : {"bob", "@example.com", "bob@localhost", "bob@@example.com",
                            "bob smith@example.com", "bob@example.com."}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(identity.set_user_email("bob", bad), AdminError);
    }
    // A refused address creates no user.
    CHECK_THROWS_AS(identity.create_user("carol", "Carol", false, "not-an-address"), AdminError);
    CHECK_FALSE(identity.find_user("carol").has_value());
    CHECK_THROWS_AS(identity.create_user("carol", "Carol", false, "ALICE@corp.example"),
                    AdminError);
    CHECK_FALSE(identity.find_user("carol").has_value());
}
