#pragma once
// What other plugins read of a build (BuildSummary) and what its events say of it (BuildFacts).

#include <vector>

#include "build_status.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/events.hpp"
#include "store/build.hpp"

namespace loupe::builds {

BuildSummary summarize(const Build& build, const StatusInputs& inputs);

BuildFacts build_facts(const Build& build, const StatusInputs& inputs);

/// Summaries of `builds` as they read now (one read of their failed diffs), in order.
std::vector<BuildSummary> summarize_builds(soci::session& session,
                                           const std::vector<Build>& builds);

}  // namespace loupe::builds
