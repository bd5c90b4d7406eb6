#pragma once
// The Argos API's automation rules of a project, for its administrators (a rule names Slack
// channels and webhooks, so even reading them is an administrator's view, as in Argos):
//   GET  /projects/{owner}/{project}/automation-rules            most recent first; ?active=
//   POST /projects/{owner}/{project}/automation-rules            201, with `webhookSecret` once
//   GET  /projects/{owner}/{project}/automation-rules/{ruleId}
//   PUT  /projects/{owner}/{project}/automation-rules/{ruleId}   replaces the definition
//   POST /projects/{owner}/{project}/automation-rules/{ruleId}/deactivate
// and Loupe's run history of a rule, and a test of its targets from the page:
//   GET  /_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/runs
//   POST /_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/test

#include "actions/action_delivery.hpp"
#include "automation_settings.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "targets/chat_targets.hpp"

namespace loupe::automation {

void add_rule_routes(Host& host, const AutomationSettings& settings, const ChatTargets& targets);
void add_run_routes(Host& host, builds::BuildsService& builds, const ActionDelivery& delivery);

}  // namespace loupe::automation
