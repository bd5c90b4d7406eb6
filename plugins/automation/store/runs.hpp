#pragma once
// The run history: automation_runs (one per rule and event that matched it) and
// automation_action_runs (one per action of a run: its rendered message, its delivery's
// outcome). The idempotency key of a delivery is "<event id>:<rule id>:<action index>": a run
// is inserted at most once per rule and event, so an event delivered twice posts once.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::automation {

struct NewRun {
    int64_t rule_id = 0;
    int64_t project_id = 0;
    std::string event_id;
    std::string event;  ///< build.completed | build.reviewed
    int64_t build_id = 0;
    int64_t build_number = 0;
};

/// Inserts the run unless the rule already ran for this event; returns its id, or nullopt when
/// it already exists.
std::optional<int64_t> insert_run(soci::session& session, const NewRun& run, int64_t now);

/// Inserts a pending action run; returns its id.
int64_t insert_action_run(soci::session& session, int64_t run_id, int index,
                          const std::string& action, const Json& target, const Json& message,
                          const std::string& idempotency_key, int64_t now);
void set_action_job(soci::session& session, int64_t action_run_id, int64_t job_id);

struct ActionRun {
    int64_t id = 0;
    int64_t rule_id = 0;
    int64_t account_id = 0;  ///< the account of the rule's project (whose chat targets it uses)
    std::string action;
    Json target;
    Json message;
    std::string idempotency_key;
    std::string status;  ///< pending | success | failed
    int attempts = 0;
};

std::optional<ActionRun> find_action_run(soci::session& session, int64_t action_run_id);
/// Notes an attempt's outcome; `status` is the action run's status after it.
void record_attempt(soci::session& session, int64_t action_run_id, const std::string& status,
                    std::optional<int> response_status, const std::string& error, int64_t now);

/// A rule's runs, newest first, each with its actions' outcomes (the API's JSON).
Json runs_json(soci::session& session, int64_t rule_id, int64_t limit, int64_t offset);
int64_t count_runs(soci::session& session, int64_t rule_id);

}  // namespace loupe::automation
