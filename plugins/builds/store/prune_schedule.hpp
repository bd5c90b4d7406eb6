#pragma once
// The schedule of the recurring prune job: one row. Its sequence number names the one job that
// may run next, so a duplicate (two instances starting at once, a job claimed again after its
// lease expired) finds the sequence moved on and does nothing.

#include <cstdint>
#include <optional>
#include <string>

namespace soci {
class session;
}

namespace loupe::builds {

struct PruneSchedule {
    int64_t sequence = 0;
    int64_t next_run_at = 0;
    std::optional<int64_t> last_run_at;
};

std::optional<PruneSchedule> load_prune_schedule(soci::session& session);
/// Creates the row unless it exists; true when this call created it.
bool create_prune_schedule(soci::session& session, int64_t next_run_at);
/// Moves the schedule from `sequence` to the next run; false when it had moved on already.
bool advance_prune_schedule(soci::session& session, int64_t sequence, int64_t next_run_at,
                            std::optional<int64_t> ran_at, const std::string& report);

}  // namespace loupe::builds
