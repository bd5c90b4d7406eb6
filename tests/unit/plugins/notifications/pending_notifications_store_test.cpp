// The notifications plugin's store on its real schema (both databases): a redelivered event adds
// no second row, a batch claims every waiting notification once, and preferences default on.
#include <doctest/doctest.h>

#include "runtime.hpp"
#include "store/notification_preferences.hpp"
#include "store/pending_notifications.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"

using namespace loupe::notifications;

TEST_CASE("pending notifications: idempotent per event and recipient, claimed once per batch") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    loupe::Runtime runtime(
        loupe::Config::load("", {{"db.url", database.url()},
                                 {"data.dir", data.path()},
                                 {"plugins.path", LOUPE_TEST_PLUGIN_DIR},
                                 {"plugins.enabled", "auth,builds,reviews,notifications"},
                                 {"log.level", "error"}}));
    runtime.load_plugins();
    runtime.migrate();
    const auto ada = runtime.identity().create_user("ada", "Ada").id;
    const auto bob = runtime.identity().create_user("bob", "Bob").id;
    auto session = runtime.database().session();
    const int64_t t0 = 1'000'000;

    CHECK(add_pending(*session, "event-1", ada, "mention", {{"body", "one"}}, t0));
    CHECK_FALSE(add_pending(*session, "event-1", ada, "mention", {{"body", "again"}}, t0 + 1));
    CHECK(add_pending(*session, "event-1", bob, "reply", {{"body", "one"}}, t0));
    CHECK(add_pending(*session, "event-2", ada, "reply", {{"body", "two"}}, t0 + 10));
    CHECK(oldest_unbatched(*session, ada) == t0);
    CHECK_FALSE(open_batch(*session, ada).has_value());

    const auto batch = claim_batch(*session, ada, "<m1@example.com>", t0 + 200);
    REQUIRE(batch.notifications.size() == 2);
    CHECK(batch.notifications[0].payload.at("body") == "one");
    CHECK(batch.notifications[1].kind == "reply");
    CHECK_FALSE(oldest_unbatched(*session, ada).has_value());
    CHECK(oldest_unbatched(*session, bob) == t0);
    // Until it is marked sent, a retry takes up the same batch (same Message-ID).
    const auto again = open_batch(*session, ada);
    REQUIRE(again.has_value());
    CHECK(again->id == batch.id);
    CHECK(again->message_id == "<m1@example.com>");
    CHECK(again->notifications.size() == 2);
    // One attempt at a time holds the batch; a failed attempt gives it up, an expired lease too.
    CHECK(lease_batch(*session, batch.id, t0 + 200, t0 + 1200));
    CHECK_FALSE(lease_batch(*session, batch.id, t0 + 250, t0 + 1250));
    release_batch(*session, batch.id);
    CHECK(lease_batch(*session, batch.id, t0 + 260, t0 + 1260));
    CHECK(lease_batch(*session, batch.id, t0 + 1260, t0 + 2260));
    mark_batch_sent(*session, batch.id, t0 + 300);
    CHECK_FALSE(open_batch(*session, ada).has_value());
    // A later notification starts a new batch; a given-up batch is not taken up again.
    CHECK(add_pending(*session, "event-3", ada, "mention", {{"body", "three"}}, t0 + 400));
    const auto next = claim_batch(*session, ada, "<m2@example.com>", t0 + 500);
    CHECK(next.notifications.size() == 1);
    mark_batch_failed(*session, next.id, "550 refused", t0 + 600);
    CHECK_FALSE(open_batch(*session, ada).has_value());
}

TEST_CASE("notification preferences: on by default, off once chosen; one secret") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    loupe::Runtime runtime(
        loupe::Config::load("", {{"db.url", database.url()},
                                 {"data.dir", data.path()},
                                 {"plugins.path", LOUPE_TEST_PLUGIN_DIR},
                                 {"plugins.enabled", "auth,builds,reviews,notifications"},
                                 {"log.level", "error"}}));
    runtime.load_plugins();
    runtime.migrate();
    const auto ada = runtime.identity().create_user("ada", "Ada").id;
    auto session = runtime.database().session();
    CHECK(kind_enabled(*session, ada, "mention"));
    set_kind_enabled(*session, ada, "mention", false, 1);
    CHECK_FALSE(kind_enabled(*session, ada, "mention"));
    CHECK(kind_enabled(*session, ada, "reply"));
    set_kind_enabled(*session, ada, "mention", true, 2);
    CHECK(kind_enabled(*session, ada, "mention"));
    CHECK(explicit_preferences(*session, ada).at("mention"));
    const auto secret = unsubscribe_secret(*session);
    CHECK(secret.size() == 64);
    CHECK(unsubscribe_secret(*session) == secret);
}
