#pragma once
// What the git plugin shows of a build follows the events that change how the build reads:
// build.created, build.concluded, build.failed (builds) and build.review_state_changed
// (reviews); build.finalized is left out (the build still reads pending). Each subscriber
// handles a delivery in a transaction of its own: it reads the build as it now is and notes
// what to push in the outbox (store/push_outbox.hpp), queueing the push job. Handling an event
// twice (a delivery run again) only asks for the same push twice, which the outbox folds into
// one: the latest state wins and an unchanged one is not sent again.

#include <functional>
#include <string>

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::git {

enum class BuildChange { created, concluded, failed, review_changed };

/// Notes what to push for `build` after `change`, in the caller's transaction.
using BuildChangeObserver = std::function<void(soci::session& session, BuildChange change,
                                               const builds::BuildSummary& build)>;

/// Subscribes `name` (a job kind "git.<what>") to the build events above (install() only).
void subscribe_to_build_changes(Host& host, builds::BuildsService& builds, const std::string& name,
                                int max_attempts, BuildChangeObserver observer);

}  // namespace loupe::git
