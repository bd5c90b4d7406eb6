#pragma once
// The reads behind the Tests API: which tests of a project still run, a test's history of
// changes, its diffs over a period, and the project's ignored changes. A test "still runs" when
// it has a screenshot in the latest reference build of a build name (its status `ongoing`);
// changes are counted from reference builds only, where a diff means the test moved by itself.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

struct TestRecord {
    int64_t id = 0;
    std::string name;
    std::string build_name;
    int64_t created_at = 0;
};

/// The latest reference build of each build name of the project (the higher id on equal times).
std::vector<int64_t> latest_reference_builds(soci::session& session, int64_t project_id);

struct TestFilters {
    std::optional<std::string> build_name;  ///< exact build name
    std::optional<std::string> search;      ///< part of the test's name, any case
};

/// The tests with a top-level screenshot (no parent name) in one of `latest_builds`, filtered.
std::vector<TestRecord> tests_in_builds(soci::session& session, int64_t project_id,
                                        const std::vector<int64_t>& latest_builds,
                                        const TestFilters& filters);

/// The project's test with this number, if any.
std::optional<TestRecord> find_project_test(soci::session& session, int64_t project_id,
                                            int64_t test_id);

/// Whether the test has a diff in one of `latest_builds`.
bool test_has_diff_in(soci::session& session, int64_t test_id,
                      const std::vector<int64_t>& latest_builds);

/// One diff of a test, in the build that captured it.
struct DiffOccurrence {
    int64_t diff_id = 0;
    int64_t created_at = 0;
    std::optional<std::string> mask_key;
    int64_t build_number = 0;
};

/// The test's first and last diff with a mask, in any build, at any time.
struct FirstAndLast {
    std::optional<DiffOccurrence> first;
    std::optional<DiffOccurrence> last;
};
FirstAndLast first_and_last_change(soci::session& session, int64_t test_id);

/// A diff of the test in a reference build, for the metrics series.
struct SeriesDiff {
    int64_t created_at = 0;
    bool changed = false;  ///< score > 0
    bool unique = false;   ///< changed, and no other reference build has a diff with its mask
};
/// The test's diffs in reference builds created in [from, to).
std::vector<SeriesDiff> reference_diffs_between(soci::session& session, int64_t test_id,
                                                int64_t from_ms, int64_t to_ms);

/// Where a change (a fingerprint of the test) was seen in reference builds since a date.
struct ChangeSightings {
    DiffOccurrence first;
    DiffOccurrence last;
};
/// Every fingerprint of the test's changed diffs (score > 0) in reference builds created at or
/// after `from`, with its first and last such diff.
std::map<std::string, ChangeSightings> changes_since(soci::session& session, int64_t test_id,
                                                     int64_t from_ms);

/// One ignored change of a project.
struct IgnoredChangeRecord {
    int64_t test_id = 0;
    std::string fingerprint;
};
struct IgnoredChangesPage {
    int64_t total = 0;
    std::vector<IgnoredChangeRecord> changes;  ///< most recently ignored first
};
IgnoredChangesPage ignored_changes_page(soci::session& session, int64_t project_id, int64_t offset,
                                        int64_t limit);

}  // namespace loupe::builds
