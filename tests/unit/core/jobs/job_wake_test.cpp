// A job a plugin enqueues (or an event it publishes) inside a request's transaction wakes an
// idle worker once that transaction commits, not at the worker's next poll: a worker woken
// before the commit would find nothing and sleep a whole poll interval.
#include <doctest/doctest.h>

#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;

TEST_CASE("jobs: a job enqueued in a request's transaction wakes an idle worker at its commit") {
    auto options = with_reviews();
    // Only a wake-up can start the processing and the event deliveries within the test's
    // deadlines (a minute each).
    options.settings["jobs.poll_ms"] = "600000";
    InProcessServer server(options);
    const auto build = push_shots(server, {{"x", png_blob("x")}}, body(sha('a'), "main"));
    // A first build: its screenshot is new.
    CHECK(wait_concluded(server, number_of(build))["status"] == "changes-detected");
    // The conclusion's event reaches the reviews plugin's subscriber the same way.
    wait_jobs_settled(server, "reviews.carry_approvals");
}
