#pragma once
// Approvals carry forward: when a build of a branch concludes with changes, and the latest
// earlier build of that branch (same name) that reviewers accepted had exactly those changes
// (each reviewable diff matched by its fingerprint, or by its file when it has none), the build is
// approved on behalf of the users whose approvals counted there. Merge-queue builds and users
// who already reviewed the build are left out. Runs in the transaction that concluded the build.

#include "loupe/builds/builds_service.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

void carry_approvals_forward(soci::session& session, builds::BuildsService& builds,
                             const builds::BuildSummary& build);

}  // namespace loupe::reviews
