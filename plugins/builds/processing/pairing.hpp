#pragma once
// Pairs a build's screenshots with its baseline's by name: a pure function.

#include <optional>
#include <string>
#include <vector>

#include "store/screenshots.hpp"

namespace loupe::builds {

struct PlannedDiff {
    const Screenshot* base = nullptr;  ///< null: added or failure
    const Screenshot* head = nullptr;  ///< null: removed
    bool needs_compute = false;        ///< pending until the diff job computes it
    std::optional<double> score;       ///< 0 when both sides hold the same file
};

/// Head diffs in head order, then removed baseline screenshots in baseline order.
/// `baseline` is null when the build has no baseline.
std::vector<PlannedDiff> pair_screenshots(const std::vector<Screenshot>& head,
                                          const std::vector<Screenshot>* baseline);

}  // namespace loupe::builds
