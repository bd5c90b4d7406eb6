#pragma once
// Concluding a build: once every diff is complete, stats and conclusion are
// written once. Call with the build row locked, in the transaction that completed the last diff.

#include <vector>

#include "processing/diff_status.hpp"
#include "service/build_events.hpp"
#include "store/build.hpp"
#include "store/diffs.hpp"

namespace loupe::builds {

/// The facts each diff's status depends on, reading its screenshots.
std::vector<DiffFacts> diff_facts(soci::session& session, const std::vector<DiffRow>& diffs);

/// Concludes `build` if it is processed, unconcluded and has no diff left to compute (nor a
/// failed one), and publishes build.concluded. Returns true when it concluded now.
bool try_conclude(soci::session& session, Build& build, const BuildEvents& events);

}  // namespace loupe::builds
