#pragma once
// A diff's status, the build's stats and conclusion: pure functions.

#include <optional>
#include <string>
#include <vector>

#include "loupe/builds/build_states.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {

/// What the status of one diff depends on.
struct DiffFacts {
    bool has_base = false;
    bool has_head = false;
    std::string head_name;
    Json head_metadata;  ///< for `test.retry` / `test.retries`
    bool head_has_parent = false;
    std::optional<double> score;
    bool ignored = false;
};

/// True for the names Playwright gives failed tests' screenshots ("x (failed).png").
bool is_failure_name(const std::string& name);

/// `null_score_as_unchanged` is the stats/conclusion reading (Argos's SQL) instead of `pending`.
DiffStatus diff_status(const DiffFacts& facts, bool null_score_as_unchanged = false);

/// {added, removed, unchanged, changed, ignored, failure, retryFailure, total} over the diffs
/// that count: removed ones and those whose head has no `parentName`.
Json compute_stats(const std::vector<DiffFacts>& diffs);

/// `changes-detected` iff a counted diff is added, changed or (non-subset builds) removed.
Conclusion compute_conclusion(const Json& stats, bool subset);

}  // namespace loupe::builds
