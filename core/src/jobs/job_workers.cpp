#include "jobs/job_workers.hpp"

#include <algorithm>
#include <optional>

#include "jobs/job_claims.hpp"
#include "jobs/job_maintenance.hpp"
#include "jobs/job_outcomes.hpp"

namespace loupe {
namespace {

std::vector<std::string> kind_names(const JobKindTable& kinds) {
    std::vector<std::string> names;
    for (const auto& [kind, _] : kinds) {
        names.push_back(kind);
    }
    return names;
}

// A worker that saw a claimable job but lost it to another worker looks again at once, a few
// times, before waiting: with SKIP LOCKED a row locked by a long transaction stays visible to
// the unlocked read, and retrying forever would spin.
constexpr int max_immediate_retries = 3;

constexpr int64_t max_failure_wait_ms = 10'000;

}  // namespace

JobWorkers::JobWorkers(Database& database, JobKindTable kinds, JobSettings settings, Logger& log,
                       JobSignal& signal, std::string instance_id, JobMetrics* metrics)
    : database_(database),
      kinds_(std::move(kinds)),
      settings_(settings),
      log_(log),
      signal_(signal),
      instance_id_(std::move(instance_id)),
      filter_(kind_names(kinds_)),
      metrics_(metrics),
      runner_(database_, kinds_, settings_, log_, instance_id_, metrics_),
      leases_(database_, settings_, log_, instance_id_) {}

JobWorkers::~JobWorkers() {
    stop();
}

void JobWorkers::start() {
    leases_.start();
    {
        const std::lock_guard lock(running_mutex_);
        active_threads_ = settings_.workers;
    }
    for (int i = 0; i < settings_.workers; ++i) {
        threads_.emplace_back([this] {
            work();
            const std::lock_guard lock(running_mutex_);
            --active_threads_;
            running_changed_.notify_all();
        });
    }
    log_.info("jobs.started", {{"workers", std::to_string(settings_.workers)},
                               {"kinds", std::to_string(kinds_.size())},
                               {"instance", instance_id_}});
}

void JobWorkers::stop() {
    drain(std::chrono::steady_clock::time_point::max());
}

void JobWorkers::stop_claiming() {
    stopping_ = true;
    signal_.notify_all();
}

std::size_t JobWorkers::drain(std::chrono::steady_clock::time_point deadline) {
    if (stopped_) {
        return 0;
    }
    stopped_ = true;
    stop_claiming();
    bool all_left = false;
    std::map<int64_t, std::string> unfinished;
    {
        std::unique_lock lock(running_mutex_);
        const auto left = [&] { return active_threads_ == 0; };
        if (deadline == std::chrono::steady_clock::time_point::max()) {
            running_changed_.wait(lock, left);
            all_left = true;
        } else {
            all_left = running_changed_.wait_until(lock, deadline, left);
        }
        if (!all_left) {
            unfinished = running_;
        }
    }
    if (!all_left) {
        hand_back(unfinished);
        const std::size_t left_behind = threads_.size();
        for (auto& thread : threads_) {
            thread.detach();
        }
        threads_.clear();
        return left_behind;
    }
    for (auto& thread : threads_) {
        thread.join();
    }
    leases_.stop();
    if (!threads_.empty()) {
        log_.info("jobs.stopped", {{"instance", instance_id_}});
    }
    threads_.clear();
    return 0;
}

void JobWorkers::hand_back(const std::map<int64_t, std::string>& jobs) {
    for (const auto& [id, kind] : jobs) {
        try {
            if (release_job(database_, id, instance_id_, now_ms())) {
                if (metrics_ != nullptr) {
                    metrics_->released(kind);
                }
                log_.info("job.released", {{"kind", kind},
                                           {"id", std::to_string(id)},
                                           {"instance", instance_id_},
                                           {"reason", "still running at the end of the drain"}});
            }
        } catch (const std::exception& error) {
            log_.warn("job.release_failed",
                      {{"kind", kind},
                       {"id", std::to_string(id)},
                       {"error", error.what()},
                       {"consequence", "claimed again when its lease runs out"}});
        }
    }
}

void JobWorkers::work() {
    int lost_races = 0;
    int failures = 0;
    while (!stopping_) {
        maintain_if_due();
        const uint64_t seen = signal_.generation();
        bool found = false;
        std::optional<ClaimedJob> claimed;
        try {
            found = has_claimable_job(database_, filter_, now_ms());
            if (found) {
                claimed = claim_job(database_, filter_, instance_id_, settings_.lease_ms);
            }
            failures = 0;
        } catch (const std::exception& error) {
            found = false;
            ++failures;
            log_.error("job.claim_failed",
                       {{"error", error.what()}, {"failures", std::to_string(failures)}});
        }
        if (!claimed) {
            if (found && ++lost_races <= max_immediate_retries) {
                continue;
            }
            lost_races = 0;
            signal_.wait(seen, std::chrono::milliseconds(idle_wait_ms(failures)));
            continue;
        }
        lost_races = 0;
        if (claimed->give_up_error) {
            if (metrics_ != nullptr) {
                metrics_->gave_up(claimed->job.kind);
            }
            runner_.give_up(claimed->job, *claimed->give_up_error);
            continue;
        }
        if (stopping_) {
            // Claimed while the pool was being stopped: back to the queue, not run.
            hand_back({{claimed->job.id, claimed->job.kind}});
            continue;
        }
        run_claimed(claimed->job);
    }
}

void JobWorkers::run_claimed(const Job& job) {
    {
        const std::lock_guard lock(running_mutex_);
        running_[job.id] = job.kind;
    }
    leases_.hold(job.id);
    runner_.run(job);
    leases_.release(job.id);
    const std::lock_guard lock(running_mutex_);
    running_.erase(job.id);
}

int64_t JobWorkers::idle_wait_ms(int failures) const {
    // While the database fails, back off (up to 10 s) instead of logging an error every poll.
    int64_t wait = settings_.poll_ms;
    for (int i = 0; i < failures && wait < max_failure_wait_ms; ++i) {
        wait = std::min(wait * 2, max_failure_wait_ms);
    }
    return wait;
}

void JobWorkers::maintain_if_due() {
    const int64_t now = now_ms();
    int64_t due = next_maintenance_ms_.load();
    if (now < due || !next_maintenance_ms_.compare_exchange_strong(
                         due, now + settings_.maintenance_interval_ms)) {
        return;
    }
    std::unique_lock lock(maintenance_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
        return;
    }
    try {
        const int64_t purged = purge_done_jobs(database_, now - settings_.keep_done_ms);
        if (purged > 0) {
            log_.debug("jobs.purged", {{"done_jobs", std::to_string(purged)}});
        }
        for (const auto& kind : unhandled_queued_kinds(database_, filter_)) {
            if (reported_kinds_.insert(kind).second) {
                log_.warn("job.kind_unhandled",
                          {{"kind", kind},
                           {"reason", "no enabled plugin handles it here; its jobs stay queued"}});
            }
        }
    } catch (const std::exception& error) {
        log_.error("jobs.maintenance_failed", {{"error", error.what()}});
    }
}

}  // namespace loupe
