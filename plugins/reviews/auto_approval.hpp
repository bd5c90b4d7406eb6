#pragma once
// Approvals carry forward: when a build of a branch concludes with changes, and the latest
// earlier build of that branch (same name) that reviewers accepted had exactly those changes
// (each reviewable diff matched by its fingerprint, or by its file when it has none), the build is
// approved on behalf of the users whose approvals counted there. Merge-queue builds and users
// who already reviewed the build are left out. Runs on the event build.concluded, after the
// build concluded, in a transaction of its own with the build locked; delivered again, it finds
// the approvals already carried (the reviewers have reviewed the build) and adds nothing.

#include "loupe/builds/builds_service.hpp"
#include "review_recorder.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

void carry_approvals_forward(soci::session& session, builds::BuildsService& builds,
                             ReviewRecorder& recorder, const builds::BuildSummary& build);

}  // namespace loupe::reviews
