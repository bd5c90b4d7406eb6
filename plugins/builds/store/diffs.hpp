#pragma once
// Screenshot diff rows: one per (base, head) pair of a processed build.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/build.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct DiffRow {
    int64_t id = 0;
    int64_t build_id = 0;
    std::optional<int64_t> base_screenshot_id;
    std::optional<int64_t> head_screenshot_id;
    std::optional<int64_t> test_id;
    ProcessingState job_status = ProcessingState::pending;  ///< pending | complete | error
    std::optional<double> score;
    std::optional<std::string> mask_key;
    std::optional<std::string> fingerprint;
    std::optional<std::string> group_key;
    bool ignored = false;
    std::optional<std::string> error;
    int64_t created_at = 0;
};

/// Inserts the diffs of a build that holds none yet (its row locked), in one statement; returns
/// their ids in the order given. Each diff has a head or a base screenshot of its own.
std::vector<int64_t> insert_build_diffs(soci::session& session, int64_t build_id,
                                        const std::vector<DiffRow>& diffs);
std::optional<DiffRow> find_diff(soci::session& session, int64_t id);
/// Removes every diff of the build (processing starts over).
void delete_build_diffs(soci::session& session, int64_t build_id);
/// Which of these builds have a diff that failed for good.
std::set<int64_t> builds_with_failed_diffs(soci::session& session,
                                           const std::vector<int64_t>& build_ids);
/// Every diff of the build, by id.
std::vector<DiffRow> build_diffs(soci::session& session, int64_t build_id);
/// The diffs with these ids that belong to the build (others are absent), by id.
std::vector<DiffRow> build_diffs_with_ids(soci::session& session, int64_t build_id,
                                          const std::vector<int64_t>& ids);
/// The diffs with these ids, whatever their build, by id.
std::vector<DiffRow> diffs_with_ids(soci::session& session, const std::vector<int64_t>& ids);
/// Writes the computed result and marks the diff complete.
void complete_diff(soci::session& session, const DiffRow& diff);
/// Marks the diff failed for good (its build never concludes and reads `error`).
void fail_diff(soci::session& session, int64_t id, const std::string& error);
/// True when a diff of the build failed for good.
bool build_has_failed_diff(soci::session& session, int64_t build_id);
/// How many diffs of the build are still to compute.
int64_t pending_diff_count(soci::session& session, int64_t build_id);
/// Sets `group_key = fingerprint` on every diff of the build with that fingerprint when at least
/// two share it.
void group_by_fingerprint(soci::session& session, int64_t build_id, const std::string& fingerprint);

}  // namespace loupe::builds
