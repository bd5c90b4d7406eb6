#include "store/rules.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/row_reader.hpp"

namespace loupe::automation {
namespace {

constexpr const char* rule_columns =
    "id, project_id, name, active, events, conditions, actions, created_at, updated_at";

StoredRule read_rule(const soci::row& row) {
    const RowReader reader(row);
    StoredRule rule;
    rule.id = reader.int64("id");
    rule.project_id = reader.int64("project_id");
    rule.name = reader.text("name");
    rule.active = reader.flag("active");
    rule.events = reader.json("events");
    rule.conditions = reader.json("conditions");
    rule.actions = reader.json("actions");
    rule.created_at = reader.int64("created_at");
    rule.updated_at = reader.int64("updated_at");
    return rule;
}

/// -1 for both, else 0 or 1 (bound, so one statement serves every filter).
int active_filter(std::optional<bool> active) {
    return active ? (*active ? 1 : 0) : -1;
}

}  // namespace

int64_t insert_rule(soci::session& session, int64_t project_id, const RuleDefinition& rule,
                    const std::string& secret, int64_t now) {
    int64_t id = 0;
    const std::string events = Json(rule.events).dump();
    const std::string conditions = rule.conditions.dump();
    const std::string actions = rule.actions.dump();
    session << "INSERT INTO automation_rules (project_id, name, active, events, conditions, "
               "actions, created_at, updated_at) VALUES (:project, :name, 1, :events, "
               ":conditions, :actions, :created, :updated) RETURNING id",
        soci::use(project_id), soci::use(rule.name), soci::use(events), soci::use(conditions),
        soci::use(actions), soci::use(now), soci::use(now), soci::into(id);
    session << "INSERT INTO automation_rule_secrets (rule_id, secret, created_at) VALUES (:rule, "
               ":secret, :created)",
        soci::use(id), soci::use(secret), soci::use(now);
    return id;
}

bool update_rule(soci::session& session, int64_t project_id, int64_t rule_id,
                 const RuleDefinition& rule, int64_t now) {
    const std::string events = Json(rule.events).dump();
    const std::string conditions = rule.conditions.dump();
    const std::string actions = rule.actions.dump();
    soci::statement statement =
        (session.prepare << "UPDATE automation_rules SET name = :name, events = :events, "
                            "conditions = :conditions, actions = :actions, updated_at = :updated "
                            "WHERE id = :id AND project_id = :project",
         soci::use(rule.name), soci::use(events), soci::use(conditions), soci::use(actions),
         soci::use(now), soci::use(rule_id), soci::use(project_id));
    statement.execute(true);
    return statement.get_affected_rows() > 0;
}

bool deactivate_rule(soci::session& session, int64_t project_id, int64_t rule_id, int64_t now) {
    if (!find_rule(session, project_id, rule_id))
        return false;
    session << "UPDATE automation_rules SET active = 0, updated_at = :updated WHERE id = :id AND "
               "active = 1",
        soci::use(now), soci::use(rule_id);
    return true;
}

std::optional<StoredRule> find_rule(soci::session& session, int64_t project_id, int64_t rule_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT " << rule_columns
                         << " FROM automation_rules WHERE id = :id AND project_id = :project",
         soci::use(rule_id), soci::use(project_id));
    for (const auto& row : rows)
        return read_rule(row);
    return std::nullopt;
}

std::vector<StoredRule> list_rules(soci::session& session, int64_t project_id,
                                   std::optional<bool> active, int64_t limit, int64_t offset) {
    const int filter = active_filter(active);
    std::vector<StoredRule> rules;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT " << rule_columns
                         << " FROM automation_rules WHERE project_id = :project AND (:filter = "
                            "-1 OR active = :active) ORDER BY created_at DESC, id DESC LIMIT "
                            ":limit OFFSET :offset",
         soci::use(project_id), soci::use(filter), soci::use(filter), soci::use(limit),
         soci::use(offset));
    for (const auto& row : rows)
        rules.push_back(read_rule(row));
    return rules;
}

int64_t count_rules(soci::session& session, int64_t project_id, std::optional<bool> active) {
    const int filter = active_filter(active);
    long long count = 0;
    session << "SELECT COUNT(*) FROM automation_rules WHERE project_id = :project AND (:filter = "
               "-1 OR active = :active)",
        soci::use(project_id), soci::use(filter), soci::use(filter), soci::into(count);
    return count;
}

std::vector<StoredRule> active_rules_for(soci::session& session, int64_t project_id,
                                         const std::string& event) {
    std::vector<StoredRule> rules;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT " << rule_columns
                         << " FROM automation_rules WHERE project_id = :project AND active = 1 "
                            "ORDER BY id",
         soci::use(project_id));
    for (const auto& row : rows) {
        StoredRule rule = read_rule(row);
        const Json& events = rule.events;
        if (events.is_array() &&
            std::find(events.begin(), events.end(), Json(event)) != events.end()) {
            rules.push_back(std::move(rule));
        }
    }
    return rules;
}

std::string rule_secret(soci::session& session, int64_t rule_id) {
    std::string secret;
    soci::indicator indicator = soci::i_null;
    session << "SELECT secret FROM automation_rule_secrets WHERE rule_id = :rule",
        soci::use(rule_id), soci::into(secret, indicator);
    return indicator == soci::i_ok ? secret : "";
}

}  // namespace loupe::automation
