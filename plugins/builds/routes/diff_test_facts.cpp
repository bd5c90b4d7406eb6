#include "routes/diff_test_facts.hpp"

#include "ids/public_ids.hpp"
#include "metrics/test_metrics.hpp"
#include "store/ignored_changes.hpp"

namespace loupe::builds {

DiffTestFacts diff_test_facts(soci::session& session, const Project& project,
                              const std::vector<const DiffView*>& page, int64_t from_ms,
                              int64_t now_ms) {
    DiffTestFacts facts;
    std::set<int64_t> unique_ids;
    for (const auto* diff : page) {
        if (diff->row.test_id) {
            unique_ids.insert(*diff->row.test_id);
        }
    }
    const std::vector<int64_t> ids(unique_ids.begin(), unique_ids.end());
    facts.tests = tests_by_id(session, ids);
    facts.ignored = ignored_changes_of(session, project.id, ids);
    facts.counts = test_counts_for(session, ids, from_ms, now_ms);
    facts.occurrences = change_occurrences_for(session, ids, from_ms);
    return facts;
}

void add_test_and_change(const std::string& project_name, const DiffView& diff,
                         const DiffTestFacts& facts, Json& out) {
    if (!diff.row.test_id) {
        return;
    }
    const int64_t test_id = *diff.row.test_id;
    auto test = facts.tests.find(test_id);
    if (test == facts.tests.end()) {
        return;
    }
    TestCounts counts;
    if (auto it = facts.counts.find(test_id); it != facts.counts.end()) {
        counts = it->second;
    }
    const auto metrics = compute_test_metrics(counts.total, counts.changes, counts.unique_changes);
    out["test"] = test_json(test_public_id(project_name, test_id), test->second.name,
                            test->second.build_name, metrics);
    if (!diff.row.fingerprint) {
        return;
    }
    const std::pair<int64_t, std::string> change{test_id, *diff.row.fingerprint};
    auto occurrences = facts.occurrences.find(change);
    out["change"] = {
        {"id", change_public_id(project_name, test_id, *diff.row.fingerprint)},
        {"ignored", facts.ignored.contains(change)},
        {"occurrences", occurrences == facts.occurrences.end() ? 0 : occurrences->second}};
}

}  // namespace loupe::builds
