#pragma once
// Turning build events into runs: the subscriber "automation.rules" follows the builds
// plugin's build.concluded (Argos's `build.completed`) and the reviews plugin's
// review.submitted with an approval or a rejection by a person (Argos's `build.reviewed`;
// comments and approvals carried forward from an earlier build do not count). For each active
// rule of the build's project that listens to the event and whose conditions hold, one run is
// recorded with one action run per action, and one delivery job per action is queued, all in
// one transaction: the unique (rule, event id) of a run makes a redelivered event a no-op.

#include "actions/action_delivery.hpp"
#include "automation_settings.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::automation {

/// Subscribes to the events (install() only).
void subscribe_rules(Host& host, builds::BuildsService& builds, const ActionDelivery& delivery);

/// A test of `rule_id` asked from the page: one run of event `test` about the newest build of
/// the project's default base branch (or, without one, about the project itself), its actions
/// delivered as a real run's, in the caller's transaction. Returns the run's id.
int64_t run_rule_test(Host& host, soci::session& session, builds::BuildsService& builds,
                      const ActionDelivery& delivery, const Project& project, int64_t rule_id);

}  // namespace loupe::automation
