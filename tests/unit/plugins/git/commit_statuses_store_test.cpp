// The push claims of commit statuses, on the git plugin's real schema (both databases): pushes
// of one build never overlap, what was last pushed is kept, and a crashed push's claim runs out.
#include <doctest/doctest.h>

#include "runtime.hpp"
#include "store/commit_statuses.hpp"
#include "support/test_database.hpp"

using namespace loupe::git;

namespace {

std::string query_text(soci::session& session, const std::string& sql) {
    std::string text;
    session << sql, soci::into(text);
    return text;
}

}  // namespace

TEST_CASE("commit status claims: one push at a time, what was pushed kept") {
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

    // The first push claims the build's row (creating it); a second one waits meanwhile.
    auto claim = claim_push(*session, build, project, t0, lease);
    CHECK(claim.result == ClaimResult::claimed);
    CHECK_FALSE(last_pushed(*session, build).has_value());
    auto busy = claim_push(*session, build, project, t0 + 20, lease);
    CHECK(busy.result == ClaimResult::busy);
    CHECK(busy.lease_until == t0 + lease);
    record_pushed(*session, build, {"github", "abc", "pending", "Build is queued", "argos"},
                  t0 + 30);
    // Then it claims the row and sees what was pushed, to send only a new state.
    claim = claim_push(*session, build, project, t0 + 40, lease);
    CHECK(claim.result == ClaimResult::claimed);
    CHECK(last_pushed(*session, build)->state == "pending");
    record_pushed(*session, build, {"github", "abc", "failure", "1 changed", "argos"}, t0 + 50);
    const auto last = last_pushed(*session, build);
    REQUIRE(last.has_value());
    CHECK(last->provider == "github");
    CHECK(last->state == "failure");
    CHECK(last->description == "1 changed");

    // A push that claimed and crashed: its claim runs out, then another takes over.
    CHECK(claim_push(*session, build, project, t0 + 100, lease).result == ClaimResult::claimed);
    CHECK(claim_push(*session, build, project, t0 + 500, lease).result == ClaimResult::busy);
    claim = claim_push(*session, build, project, t0 + 100 + lease + 1, lease);
    CHECK(claim.result == ClaimResult::claimed);
    // A failed attempt releases the row at once and keeps the error; the state stays unsent.
    release_failed_push(*session, build, "GitHub answered 502", t0 + 2'000);
    CHECK(query_text(*session, "SELECT last_error FROM git_commit_statuses") ==
          "GitHub answered 502");
    claim = claim_push(*session, build, project, t0 + 2'001, lease);
    CHECK(claim.result == ClaimResult::claimed);
    // Nothing to send (same state as last time): released, the last push unchanged.
    release_push(*session, build, t0 + 2'002);
    CHECK(claim_push(*session, build, project, t0 + 2'003, lease).result == ClaimResult::claimed);
    CHECK(last_pushed(*session, build)->state == "failure");
    // Giving up keeps the error and when; retention forgets the row.
    record_push_failed(*session, build, "GitHub answered 500", t0 + 3'000);
    CHECK(query_text(*session, "SELECT last_error FROM git_commit_statuses") ==
          "GitHub answered 500");
    CHECK(delete_statuses_of_builds(*session, {build, build + 1}) == 1);
    CHECK_FALSE(last_pushed(*session, build).has_value());
}
