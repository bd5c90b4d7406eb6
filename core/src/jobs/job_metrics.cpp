#include "jobs/job_metrics.hpp"

#include <algorithm>

#include "loupe/json.hpp"

namespace loupe {
namespace {

constexpr const char* queued_name = "loupe_jobs_queued";
constexpr const char* running_name = "loupe_jobs_running";
constexpr const char* oldest_name = "loupe_jobs_oldest_queued_age_seconds";

struct QueueFigures {
    int64_t queued = 0;
    int64_t running = 0;
    double oldest_age_seconds = 0;
};

}  // namespace

JobMetrics::JobMetrics(metrics::Metrics& registry, const std::vector<std::string>& kinds) {
    for (const auto& kind : kinds) {
        const metrics::Labels labels{{"kind", kind}};
        kinds_.emplace(
            kind,
            Kind{&registry.counter("loupe_jobs_succeeded_total",
                                   "Job runs that succeeded, by kind.", labels),
                 &registry.counter("loupe_job_failures_total",
                                   "Job attempts that failed (retried or not), by kind.", labels),
                 &registry.counter("loupe_jobs_given_up_total",
                                   "Jobs failed for good after their last attempt, by kind.",
                                   labels),
                 &registry.counter("loupe_jobs_released_total",
                                   "Running jobs handed back to the queue at shutdown, by kind.",
                                   labels),
                 &registry.histogram("loupe_job_duration_seconds",
                                     "Time a job's handler ran, by kind.",
                                     metrics::duration_buckets(), labels)});
    }
}

const JobMetrics::Kind* JobMetrics::find(const std::string& kind) const noexcept {
    const auto it = kinds_.find(kind);
    return it == kinds_.end() ? nullptr : &it->second;
}

void JobMetrics::succeeded(const std::string& kind, double seconds) noexcept {
    if (const Kind* k = find(kind)) {
        k->succeeded->add();
        k->duration->observe(seconds);
    }
}

void JobMetrics::attempt_failed(const std::string& kind, double seconds, bool gave_up) noexcept {
    if (const Kind* k = find(kind)) {
        k->failed_attempts->add();
        k->duration->observe(seconds);
        if (gave_up) {
            k->given_up->add();
        }
    }
}

void JobMetrics::gave_up(const std::string& kind) noexcept {
    if (const Kind* k = find(kind)) {
        k->given_up->add();
    }
}

void JobMetrics::released(const std::string& kind) noexcept {
    if (const Kind* k = find(kind)) {
        k->released->add();
    }
}

std::vector<std::string> job_queue_family_names() {
    return {queued_name, running_name, oldest_name};
}

void collect_job_queue(Database& database, const std::vector<std::string>& kinds,
                       metrics::Exposition& out) {
    std::map<std::string, QueueFigures> figures;
    for (const auto& kind : kinds) {
        figures[kind];
    }
    const int64_t now = now_ms();
    {
        auto session = database.session();
        std::string kind;
        std::string status;
        int64_t count = 0;
        int64_t oldest_run_at = 0;
        soci::statement statement =
            (session->prepare << "SELECT kind, status, COUNT(*), MIN(run_at) FROM jobs "
                                 "WHERE status IN ('queued', 'running') GROUP BY kind, status",
             soci::into(kind), soci::into(status), soci::into(count), soci::into(oldest_run_at));
        statement.execute();
        while (statement.fetch()) {
            auto& entry = figures[kind];
            if (status == "running") {
                entry.running = count;
            } else {
                entry.queued = count;
                // A job waiting for its retry's time has not been waiting yet.
                entry.oldest_age_seconds =
                    static_cast<double>(std::max<int64_t>(0, now - oldest_run_at)) / 1000.0;
            }
        }
    }
    out.family(queued_name,
               "Jobs waiting in the shared queue (ready or waiting to retry), by kind.",
               metrics::MetricType::gauge);
    for (const auto& [kind, entry] : figures) {
        out.sample(queued_name, {{"kind", kind}}, static_cast<double>(entry.queued));
    }
    out.family(running_name, "Jobs running on any instance, by kind.", metrics::MetricType::gauge);
    for (const auto& [kind, entry] : figures) {
        out.sample(running_name, {{"kind", kind}}, static_cast<double>(entry.running));
    }
    out.family(oldest_name,
               "How long the oldest ready job of each kind has waited to be claimed (0: none).",
               metrics::MetricType::gauge);
    for (const auto& [kind, entry] : figures) {
        out.sample(oldest_name, {{"kind", kind}}, entry.oldest_age_seconds);
    }
}

}  // namespace loupe
