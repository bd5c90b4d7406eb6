#pragma once
// Baseline selection (the rules in README "Processing") and the build type it implies. Loupe
// records why a baseline was chosen (`baselineBuild.reason` in build responses).

#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/db/dialect.hpp"
#include "store/build.hpp"
#include "store/settings.hpp"

namespace loupe::builds {

struct BaselineChoice {
    std::optional<Build> build;
    /// merge-base | ancestor | same-commit | base-branch | monitoring, or, without a baseline,
    /// no-eligible-build.
    std::string reason;
    /// How the chosen build is approved: reference | orphan | review | merged-pull-request;
    /// none when it is not (a rule that asks for no approval picked it).
    std::optional<std::string> approval;
};

/// The project's rules for what counts as an approved baseline.
struct ApprovalRules {
    std::string auto_approve;  ///< the auto-approve branch glob
    /// A check build of a merged pull request counts as approved.
    bool merged_pull_requests = true;
};

/// The project's rules from its settings.
ApprovalRules approval_rules(const BuildSettings& settings, const Project& project);

/// The baseline of `build` among the project's eligible builds.
BaselineChoice choose_baseline(soci::session& session, const Build& build, const Project& project,
                               const ApprovalRules& rules);

/// reference | check | orphan (skipped builds keep their type).
BuildType build_type(const Build& build, const std::string& auto_approve, bool has_baseline);

/// minimatch-like match of a branch against a glob (`*`, `?`, `[...]`; `*` does not cross
/// `/`, `**` does).
bool branch_matches_glob(const std::string& glob, const std::string& branch);

/// The project's auto-approve glob: its setting, else its default base branch.
std::string auto_approve_glob(const BuildSettings& settings, const Project& project);

/// POST /baseline: the approved eligible build of (name, mode) whose commit
/// comes first in `commits`, most recent on ties.
std::optional<Build> find_eligible_baseline(soci::session& session, int64_t project_id,
                                            const std::vector<std::string>& commits,
                                            const std::string& name, BuildMode mode,
                                            const ApprovalRules& rules);

}  // namespace loupe::builds
