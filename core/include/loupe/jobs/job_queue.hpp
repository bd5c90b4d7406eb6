#pragma once
// The durable job queue: a table. Enqueue inside the transaction that writes the row the job
// concerns, so a job exists if and only if its row does. Workers of any instance claim jobs with
// a lease; a job whose lease expired (crashed instance) is claimed again, so HANDLERS MUST BE
// IDEMPOTENT. Failures are retried with exponential backoff up to `max_attempts`.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe {

struct Job {
    int64_t id = 0;
    std::string kind;
    Json payload;
    int attempt = 1;       ///< 1 on the first run
    int max_attempts = 5;  ///< the run with attempt == max_attempts is the last one
};

struct JobOptions {
    int max_attempts = 5;
    int64_t delay_ms = 0;  ///< run no sooner than now + delay
};

/// Thrown by a handler that cannot do its work yet because something another job holds is busy
/// (a lease on the same row): the job runs again after `delay_ms`, and this attempt does not
/// count toward max_attempts. Nothing else about the job changes.
class LOUPE_API JobDeferred : public std::runtime_error {
public:
    JobDeferred(int64_t delay_ms, const std::string& reason)
        : std::runtime_error(reason), delay_ms_(delay_ms) {}
    ~JobDeferred() override;  // key function: one typeinfo, in libloupe-core
    int64_t delay_ms() const { return delay_ms_; }

private:
    int64_t delay_ms_;
};

/// Runs a job; throwing fails this attempt (retried with backoff until max_attempts).
using JobHandler = std::function<void(const Job&)>;
/// Called once when a job failed its last attempt (or its lease expired on the last attempt),
/// with the last error, so the owner can record the failure on its own rows.
using JobGiveUpHandler = std::function<void(const Job&, const std::string& last_error)>;

class LOUPE_API JobQueue {
public:
    virtual ~JobQueue();
    /// Registers the handler of a job kind (install() only). Kinds are global: prefix them
    /// with the plugin's domain ("build.process").
    virtual void handle(std::string kind, JobHandler handler, JobGiveUpHandler on_give_up = {}) = 0;
    /// Adds a job in the caller's transaction; returns its id.
    virtual int64_t enqueue(soci::session& session, const std::string& kind, const Json& payload,
                            JobOptions options = {}) = 0;
};

}  // namespace loupe
