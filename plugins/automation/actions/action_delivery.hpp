#pragma once
// Delivering one action of a run: a job of kind "automation.deliver" on the core job queue,
// queued in the transaction that recorded the run. The job posts the message rendered when the
// rule matched to the action's target, on a job worker (never on a request or a build's
// processing), within `timeout_ms`. A 2xx (and, for Slack, `"ok": true`) marks the action run
// `success`; a network error, a timeout, a 408, 429 or 5xx is retried with the queue's backoff
// up to `max_attempts`, then marked `failed`; any other answer (a 4xx the target will repeat)
// is marked `failed` at once. A run that is no longer pending is not posted again, so a job
// that runs twice posts once (short of a crash between the post and its record).

#include <cstdint>

#include "automation_settings.hpp"
#include "loupe/host.hpp"
#include "loupe/http/http_client.hpp"
#include "targets/chat_targets.hpp"

namespace loupe::automation {

inline constexpr const char* deliver_job_kind = "automation.deliver";

class ActionDelivery {
public:
    ActionDelivery(Host& host, const AutomationSettings& settings, const ChatTargets& targets);
    /// Registers the job kind (install() only).
    void install();
    /// Queues the delivery of an action run in the caller's transaction; returns the job id.
    int64_t enqueue(soci::session& session, int64_t action_run_id) const;

private:
    void deliver(const Job& job) const;

    Host& host_;
    const AutomationSettings& settings_;
    const ChatTargets& targets_;
    HttpClient http_;
};

}  // namespace loupe::automation
