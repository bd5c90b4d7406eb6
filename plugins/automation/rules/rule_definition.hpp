#pragma once
// The definition of an automation rule as `POST` and `PUT …/automation-rules` send it, checked
// the way Argos's schema checks it: a name of 3 to 100 characters, at least one event
// (`build.completed`, `build.reviewed`), conditions combined with AND (each a build-branch,
// build-conclusion, build-mode, build-name or build-type test, a branch `glob`, or a `not`
// around either), and at least one action. Actions are stored resolved, as
// {"action": type, "actionPayload": {...}}:
//   sendSlackMessage    {slackId, name}: the channel by id when given, else by name
//   sendMsTeamsMessage  {webhookId}: a Teams webhook of the team's, or the operator's
//   sendDiscordMessage  {webhookId}: a Discord webhook of the team's, or the operator's
//   sendWebhook         {url}: Loupe's own, a JSON POST signed the Standard Webhooks way

#include <functional>
#include <string>
#include <vector>

#include "automation_settings.hpp"
#include "loupe/json.hpp"

namespace loupe::automation {

struct RuleDefinition {
    std::string name;
    std::vector<std::string> events;
    Json conditions = Json::array();  ///< as sent (each validated)
    Json actions = Json::array();     ///< resolved: [{"action", "actionPayload"}]
};

/// Reads and validates a rule's definition; throws HttpError 400 listing every issue.
RuleDefinition read_rule_definition(const Json& body, const AutomationSettings& settings);

/// Whether the rule's team may post to a chat service: (kind slack | teams | discord, the
/// webhook's name; empty for Slack).
using ChatTargetCheck = std::function<bool(const std::string& kind, const std::string& name)>;
/// Throws HttpError 400 naming each action whose chat service is not configured for the team.
void check_chat_targets(const RuleDefinition& rule, const ChatTargetCheck& available);

}  // namespace loupe::automation
