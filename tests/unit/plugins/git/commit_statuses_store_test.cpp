// The push claims of commit statuses, on the git plugin's real schema (both databases): pushes
// of one build never overlap, the latest state wins, and a crashed push's claim runs out.
#include <doctest/doctest.h>

#include "runtime.hpp"
#include "store/commit_statuses.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"

using namespace loupe::git;

TEST_CASE("commit status claims: one push at a time, the latest state wins") {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    loupe::Runtime runtime(loupe::Config::load("", {{"db.url", database.url()},
                                                    {"data.dir", data.path()},
                                                    {"plugins.path", LOUPE_TEST_PLUGIN_DIR},
                                                    {"plugins.enabled", "auth,builds,git"},
                                                    {"log.level", "error"}}));
    runtime.load_plugins();
    runtime.migrate();
    runtime.identity().create_user("ada", "Ada");
    runtime.identity().create_team("acme", "Acme", "ada");
    const auto project = runtime.identity().create_project("acme", "web", "main").first.id;
    auto session = runtime.database().session();
    const int64_t build = 41;
    const int64_t t0 = 1'000'000;
    const int64_t lease = 1'000;

    // Two changes of the build: two requests, two sequence numbers.
    const auto first = request_push(*session, build, project, t0);
    CHECK(first == 1);
    auto claim = claim_push(*session, build, first, t0, lease);
    CHECK(claim.result == ClaimResult::claimed);
    CHECK(claim.claimed_seq == 1);
    const auto second = request_push(*session, build, project, t0 + 10);
    CHECK(second == 2);
    // The second push waits while the first holds the row.
    auto busy = claim_push(*session, build, second, t0 + 20, lease);
    CHECK(busy.result == ClaimResult::busy);
    CHECK(busy.lease_until == t0 + lease);
    record_pushed(*session, build, claim.claimed_seq,
                  {"github", "abc", "pending", "Build is queued", "argos"}, t0 + 30);
    // Then it claims everything requested so far, and the first job, run late, has nothing left.
    claim = claim_push(*session, build, second, t0 + 40, lease);
    CHECK(claim.result == ClaimResult::claimed);
    CHECK(claim.claimed_seq == 2);
    record_pushed(*session, build, claim.claimed_seq,
                  {"github", "abc", "failure", "1 changed", "argos"}, t0 + 50);
    CHECK(claim_push(*session, build, first, t0 + 60, lease).result == ClaimResult::superseded);
    CHECK(claim_push(*session, build, second, t0 + 60, lease).result == ClaimResult::superseded);
    const auto last = last_pushed(*session, build);
    REQUIRE(last.has_value());
    CHECK(last->state == "failure");
    CHECK(last->description == "1 changed");

    // A push that claimed and crashed: its claim runs out, then another takes over.
    const auto third = request_push(*session, build, project, t0 + 100);
    CHECK(claim_push(*session, build, third, t0 + 100, lease).result == ClaimResult::claimed);
    CHECK(claim_push(*session, build, third, t0 + 500, lease).result == ClaimResult::busy);
    claim = claim_push(*session, build, third, t0 + 100 + lease + 1, lease);
    CHECK(claim.result == ClaimResult::claimed);
    // A failed attempt releases the row at once and keeps the error; the state stays unsent.
    release_push(*session, build, "GitHub answered 502", t0 + 2'000);
    claim = claim_push(*session, build, third, t0 + 2'001, lease);
    CHECK(claim.result == ClaimResult::claimed);
    // Nothing to send (same state as last time): the request is covered all the same.
    mark_covered(*session, build, claim.claimed_seq, t0 + 2'002);
    CHECK(claim_push(*session, build, third, t0 + 2'003, lease).result == ClaimResult::superseded);
    CHECK(last_pushed(*session, build)->state == "failure");
    // A build never requested has nothing to push.
    CHECK(claim_push(*session, build + 1, 1, t0, lease).result == ClaimResult::superseded);
}
