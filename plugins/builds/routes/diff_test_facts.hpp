#pragma once
// The `test` and `change` fields of SnapshotDiff JSON: what a page of diffs needs is read in a
// few statements for the whole page rather than a few per diff.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "diff_json.hpp"
#include "store/test_stats.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct DiffTestFacts {
    std::map<int64_t, TestRow> tests;
    std::map<int64_t, TestCounts> counts;
    std::set<std::pair<int64_t, std::string>> ignored;
    std::map<std::pair<int64_t, std::string>, int64_t> occurrences;
};

/// The facts of the tests of `page`, with metrics counted over [from, now).
DiffTestFacts diff_test_facts(soci::session& session, const Project& project,
                              const std::vector<const DiffView*>& page, int64_t from_ms,
                              int64_t now_ms);

/// Fills `test` ({"id", "name", "buildName", "metrics"}) and `change` ({"id", "ignored",
/// "occurrences"}) of one diff's JSON when it has a test (and a fingerprint).
void add_test_and_change(const std::string& project_name, const DiffView& diff,
                         const DiffTestFacts& facts, Json& out);

}  // namespace loupe::builds
