#pragma once
// The AutomationRule resource of the Argos API.

#include "loupe/json.hpp"
#include "store/rules.hpp"

namespace loupe::automation {

/// {id, name, active, events, conditions, actions: [{action, actionPayload}], createdAt,
/// updatedAt}
Json rule_json(const StoredRule& rule);

/// A rule id from the path (a positive integer); nullopt for anything else.
std::optional<int64_t> parse_rule_id(const std::string& text);

}  // namespace loupe::automation
