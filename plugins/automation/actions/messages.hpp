#pragma once
// The message each action posts about a build event, in the format its service documents:
//   Slack     chat.postMessage: {channel, text (the notification's fallback), blocks}: a
//             context line (project), a section linking the build with its status, a divider
//             and the details (screenshots, branch, commit, pull request) as fields
//   Teams     an incoming webhook message carrying one Adaptive Card (1.4): title linking the
//             build, project, status, a FactSet of the details and an "Open build" action
//   Discord   an execute-webhook body with one embed: title and url (the build), description
//             (status), colour, author (the project), inline fields; mentions disabled
//   webhook   {"type": event, "timestamp", "data": {...the event's facts}}
// Text from users (branch, build and project names, reviewer) is escaped for each format.

#include <string>

#include "actions/event_facts.hpp"
#include "loupe/json.hpp"

namespace loupe::automation {

/// `channel` is the Slack channel id, else its name.
Json slack_message(const EventFacts& facts, const std::string& channel);
Json teams_message(const EventFacts& facts);
Json discord_message(const EventFacts& facts);
Json webhook_message(const EventFacts& facts);

/// The message an action posts (the actionPayload names the target where it matters).
Json message_for_action(const std::string& action, const Json& action_payload,
                        const EventFacts& facts);

}  // namespace loupe::automation
