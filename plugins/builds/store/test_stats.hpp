#pragma once
// The per-test daily counters behind flakiness metrics and change occurrences, and the tests
// themselves.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// +1 to the test's builds counter for the local day of `diff_created_at`; +1 to the
/// (test, fingerprint) counter too when a mask was produced.
void bump_test_counters(soci::session& session, int64_t test_id,
                        const std::optional<std::string>& fingerprint, int64_t diff_created_at);

/// +1 to the builds counter of each test (once per occurrence), in one statement.
void bump_build_counters(soci::session& session, const std::vector<int64_t>& test_ids,
                         int64_t diff_created_at);

/// Auto-ignore: the fingerprint's counters over the last 7 days reach `threshold`.
bool auto_ignore_due(soci::session& session, int64_t test_id, const std::string& fingerprint,
                     int64_t threshold, int64_t now_ms);

struct TestRow {
    std::string name;
    std::string build_name;
};
/// Tests by id (missing ids are absent).
std::map<int64_t, TestRow> tests_by_id(soci::session& session,
                                       const std::vector<int64_t>& test_ids);

struct TestCounts {
    int64_t total = 0;           ///< builds counter over [from, now)
    int64_t changes = 0;         ///< fingerprint counters over [from, now)
    int64_t unique_changes = 0;  ///< fingerprints seen on exactly one day of the window
};

/// The counters of each test over [from, now), in three statements (tests without counters are
/// absent).
std::map<int64_t, TestCounts> test_counts_for(soci::session& session,
                                              const std::vector<int64_t>& test_ids, int64_t from_ms,
                                              int64_t now_ms);

/// The project's tests with a builds counter in [from, now).
std::vector<int64_t> project_tests_counted(soci::session& session, int64_t project_id,
                                           int64_t from_ms, int64_t now_ms);

/// The project's name, which public test ids start with ("" for an unknown project).
std::string project_name_of(soci::session& session, int64_t project_id);

/// Σ of the (test, fingerprint) counters with day >= from (no upper bound).
int64_t change_occurrences(soci::session& session, int64_t test_id, const std::string& fingerprint,
                           int64_t from_ms);
/// change_occurrences of every (test, fingerprint) of the given tests, in one statement.
std::map<std::pair<int64_t, std::string>, int64_t> change_occurrences_for(
    soci::session& session, const std::vector<int64_t>& test_ids, int64_t from_ms);

}  // namespace loupe::builds
