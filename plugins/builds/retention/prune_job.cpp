#include "retention/prune_job.hpp"

#include <soci/soci.h>

#include "store/prune_schedule.hpp"

namespace loupe::builds {
namespace {

/// Moves the schedule on from `sequence` and queues the next run, in one transaction.
void schedule_next(Host& host, int64_t sequence, int64_t interval_ms, std::optional<int64_t> ran_at,
                   const std::string& report) {
    host.db().transaction([&](soci::session& session) {
        if (advance_prune_schedule(session, sequence, now_ms() + interval_ms, ran_at, report)) {
            JobOptions options;
            options.delay_ms = interval_ms;
            options.max_attempts = 3;
            host.jobs().enqueue(session, prune_job_kind, Json{{"sequence", sequence + 1}}, options);
        }
    });
}

/// True when the job carrying `sequence` is the one the schedule expects.
bool is_current(Host& host, int64_t sequence) {
    auto session = host.db().session();
    const auto schedule = load_prune_schedule(*session);
    return schedule && schedule->sequence == sequence;
}

}  // namespace

void add_prune_job(Host& host, Retention& retention, int64_t interval_ms) {
    auto& h = host;
    host.jobs().handle(
        prune_job_kind,
        [&h, &retention, interval_ms](const Job& job) {
            const auto sequence = job.payload.at("sequence").get<int64_t>();
            if (interval_ms <= 0 || !is_current(h, sequence)) {
                return;  // a duplicate, or a run the schedule replaced
            }
            const auto report = retention.run(RetentionOptions{});
            schedule_next(h, sequence, interval_ms, now_ms(), report.to_json().dump());
        },
        [&h, interval_ms](const Job& job, const std::string& error) {
            h.log().error("builds.prune_failed", {{"error", error}});
            schedule_next(h, job.payload.at("sequence").get<int64_t>(), interval_ms, std::nullopt,
                          "");
        });
    if (interval_ms <= 0) {
        return;
    }
    host.on_ready([&h, interval_ms] {
        h.db().transaction([&](soci::session& session) {
            const int64_t now = now_ms();
            if (create_prune_schedule(session, now + interval_ms)) {
                JobOptions options;
                options.delay_ms = interval_ms;
                options.max_attempts = 3;
                h.jobs().enqueue(session, prune_job_kind, Json{{"sequence", 0}}, options);
                return;
            }
            // A schedule whose run is a whole interval late lost its job (the jobs table was
            // cleaned, or the job was removed): start the chain again.
            const auto schedule = load_prune_schedule(session);
            if (schedule && schedule->next_run_at + interval_ms < now &&
                advance_prune_schedule(session, schedule->sequence, now, std::nullopt, "")) {
                h.jobs().enqueue(session, prune_job_kind,
                                 Json{{"sequence", schedule->sequence + 1}});
            }
        });
    });
}

}  // namespace loupe::builds
