#pragma once
// The automation_rules table (and each rule's signing secret): every read and write of rules.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"
#include "rules/rule_definition.hpp"

namespace soci {
class session;
}

namespace loupe::automation {

struct StoredRule {
    int64_t id = 0;
    int64_t project_id = 0;
    std::string name;
    bool active = true;
    Json events = Json::array();
    Json conditions = Json::array();
    Json actions = Json::array();
    int64_t created_at = 0;
    int64_t updated_at = 0;
};

/// Adds an active rule and its signing secret; returns its id.
int64_t insert_rule(soci::session& session, int64_t project_id, const RuleDefinition& rule,
                    const std::string& secret, int64_t now);
/// Replaces the definition of the project's rule; false when there is none.
bool update_rule(soci::session& session, int64_t project_id, int64_t rule_id,
                 const RuleDefinition& rule, int64_t now);
/// Marks the rule inactive (unchanged when it already is); false when there is none.
bool deactivate_rule(soci::session& session, int64_t project_id, int64_t rule_id, int64_t now);

std::optional<StoredRule> find_rule(soci::session& session, int64_t project_id, int64_t rule_id);
/// The project's rules, most recent first; `active` filters when set.
std::vector<StoredRule> list_rules(soci::session& session, int64_t project_id,
                                   std::optional<bool> active, int64_t limit, int64_t offset);
int64_t count_rules(soci::session& session, int64_t project_id, std::optional<bool> active);
/// The project's active rules listening to `event` (build.completed | build.reviewed).
std::vector<StoredRule> active_rules_for(soci::session& session, int64_t project_id,
                                         const std::string& event);
/// The rule's signing secret ("" when it has none).
std::string rule_secret(soci::session& session, int64_t rule_id);

}  // namespace loupe::automation
