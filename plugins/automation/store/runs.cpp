#include "store/runs.hpp"

#include <soci/soci.h>

#include <map>

#include "loupe/db/row_reader.hpp"
#include "loupe/events/events.hpp"

namespace loupe::automation {

std::optional<int64_t> insert_run(soci::session& session, const NewRun& run, int64_t now) {
    int64_t id = 0;
    soci::statement statement =
        (session.prepare << "INSERT INTO automation_runs (rule_id, project_id, event_id, event, "
                            "build_id, build_number, created_at) VALUES (:rule, :project, "
                            ":event_id, :event, :build, :number, :created) ON CONFLICT (rule_id, "
                            "event_id) DO NOTHING RETURNING id",
         soci::use(run.rule_id), soci::use(run.project_id), soci::use(run.event_id),
         soci::use(run.event), soci::use(run.build_id), soci::use(run.build_number), soci::use(now),
         soci::into(id));
    if (!statement.execute(true))
        return std::nullopt;  // the rule already ran for this event
    return id;
}

int64_t insert_action_run(soci::session& session, int64_t run_id, int index,
                          const std::string& action, const Json& target, const Json& message,
                          const std::string& idempotency_key, int64_t now) {
    int64_t id = 0;
    const std::string target_text = target.dump();
    const std::string message_text = message.dump();
    session << "INSERT INTO automation_action_runs (run_id, action_index, action, target, "
               "message, idempotency_key, status, attempts, updated_at) VALUES (:run, :index, "
               ":action, :target, :message, :key, 'pending', 0, :updated) RETURNING id",
        soci::use(run_id), soci::use(index), soci::use(action), soci::use(target_text),
        soci::use(message_text), soci::use(idempotency_key), soci::use(now), soci::into(id);
    return id;
}

void set_action_job(soci::session& session, int64_t action_run_id, int64_t job_id) {
    session << "UPDATE automation_action_runs SET job_id = :job WHERE id = :id", soci::use(job_id),
        soci::use(action_run_id);
}

std::optional<ActionRun> find_action_run(soci::session& session, int64_t action_run_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT a.id AS id, r.rule_id AS rule_id, p.account_id AS "
                            "account_id, a.action AS action, a.target AS target, a.message AS "
                            "message, a.idempotency_key AS idempotency_key, a.status AS status, "
                            "a.attempts AS attempts FROM automation_action_runs a JOIN "
                            "automation_runs r ON r.id = a.run_id JOIN automation_rules ru ON "
                            "ru.id = r.rule_id JOIN projects p ON p.id = ru.project_id WHERE a.id "
                            "= :id",
         soci::use(action_run_id));
    for (const auto& row : rows) {
        const RowReader reader(row);
        ActionRun run;
        run.id = reader.int64("id");
        run.rule_id = reader.int64("rule_id");
        run.account_id = reader.int64("account_id");
        run.action = reader.text("action");
        run.target = reader.json("target");
        run.message = reader.json("message");
        run.idempotency_key = reader.text("idempotency_key");
        run.status = reader.text("status");
        run.attempts = static_cast<int>(reader.int64("attempts"));
        return run;
    }
    return std::nullopt;
}

void record_attempt(soci::session& session, int64_t action_run_id, const std::string& status,
                    std::optional<int> response_status, const std::string& error, int64_t now) {
    const int response = response_status.value_or(0);
    const int64_t completed = status == "pending" ? 0 : now;
    session << "UPDATE automation_action_runs SET status = :status, attempts = attempts + 1, "
               "response_status = NULLIF(:response, 0), last_error = NULLIF(:error, ''), "
               "completed_at = NULLIF(:completed, CAST(0 AS BIGINT)), updated_at = :updated "
               "WHERE id = :id",
        soci::use(status), soci::use(response), soci::use(error), soci::use(completed),
        soci::use(now), soci::use(action_run_id);
}

Json runs_json(soci::session& session, int64_t rule_id, int64_t limit, int64_t offset) {
    Json runs = Json::array();
    std::map<int64_t, std::size_t> index_of_run;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, event_id, event, build_id, build_number, created_at FROM "
                            "automation_runs WHERE rule_id = :rule ORDER BY id DESC LIMIT :limit "
                            "OFFSET :offset",
         soci::use(rule_id), soci::use(limit), soci::use(offset));
    for (const auto& row : rows) {
        const RowReader reader(row);
        index_of_run[reader.int64("id")] = runs.size();
        runs.push_back({{"id", std::to_string(reader.int64("id"))},
                        {"eventId", reader.text("event_id")},
                        {"event", reader.text("event")},
                        {"buildNumber", reader.int64("build_number")},
                        {"createdAt", iso_time(reader.int64("created_at"))},
                        {"actions", Json::array()}});
    }
    if (runs.empty())
        return runs;
    const int64_t newest = index_of_run.rbegin()->first;
    const int64_t oldest = index_of_run.begin()->first;
    soci::rowset<soci::row> actions =
        (session.prepare << "SELECT a.run_id AS run_id, a.action AS action, a.target AS target, "
                            "a.status AS status, a.attempts AS attempts, a.response_status AS "
                            "response_status, a.last_error AS last_error, a.job_id AS job_id, "
                            "a.completed_at AS completed_at FROM automation_action_runs a JOIN "
                            "automation_runs r ON r.id = a.run_id WHERE r.rule_id = :rule AND "
                            "a.run_id BETWEEN :oldest AND :newest ORDER BY a.run_id, "
                            "a.action_index",
         soci::use(rule_id), soci::use(oldest), soci::use(newest));
    for (const auto& row : actions) {
        const RowReader reader(row);
        const auto found = index_of_run.find(reader.int64("run_id"));
        if (found == index_of_run.end())
            continue;
        const auto completed = reader.optional_int("completed_at");
        const auto job = reader.optional_int("job_id");
        runs[found->second]["actions"].push_back(
            {{"action", reader.text("action")},
             {"actionPayload", reader.json("target")},
             {"status", reader.text("status")},
             {"attempts", reader.int64("attempts")},
             {"responseStatus", optional_json(reader.optional_int("response_status"))},
             {"error", optional_json(reader.optional_text("last_error"))},
             {"jobId", job ? Json(std::to_string(*job)) : Json(nullptr)},
             {"completedAt", completed ? Json(iso_time(*completed)) : Json(nullptr)}});
    }
    return runs;
}

int64_t count_runs(soci::session& session, int64_t rule_id) {
    long long count = 0;
    session << "SELECT COUNT(*) FROM automation_runs WHERE rule_id = :rule", soci::use(rule_id),
        soci::into(count);
    return count;
}

}  // namespace loupe::automation
