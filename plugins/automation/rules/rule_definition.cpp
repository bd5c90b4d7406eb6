#include "rules/rule_definition.hpp"

#include <algorithm>

#include "loupe/http/json_reader.hpp"

namespace loupe::automation {
namespace {

const std::vector<std::string> event_names = {"build.completed", "build.reviewed"};
const std::vector<std::string> condition_types = {"build-branch", "build-conclusion", "build-mode",
                                                  "build-name", "build-type"};

/// The values a condition type accepts besides strings of its own (null for the enums).
const std::vector<std::string>* enum_values(const std::string& type) {
    static const std::vector<std::string> conclusions = {"no-changes", "changes-detected"};
    static const std::vector<std::string> modes = {"ci", "monitoring"};
    static const std::vector<std::string> types = {"reference", "check", "orphan", "skipped"};
    if (type == "build-conclusion")
        return &conclusions;
    if (type == "build-mode")
        return &modes;
    if (type == "build-type")
        return &types;
    return nullptr;
}

/// One plain condition {type, value}; branch globs only for build-branch.
void check_plain_condition(const Json& condition, Validation& validation, const std::string& path,
                           bool glob) {
    if (!condition.is_object()) {
        validation.add(path, expected_message("object", &condition));
        return;
    }
    JsonReader reader(condition, validation, path);
    const auto type = glob ? reader.one_of("type", true, {"build-branch"})
                           : reader.one_of("type", true, condition_types);
    if (!type)
        return;
    const Json* value = reader.get("value");
    if (const auto* allowed = enum_values(*type)) {
        if (value == nullptr || (!value->is_null() && !value->is_string()) ||
            (value->is_string() && std::find(allowed->begin(), allowed->end(),
                                             value->get<std::string>()) == allowed->end())) {
            reader.issue(
                "value", "Invalid option: expected one of " + [&] {
                    std::string list;
                    for (const auto& option : *allowed) {
                        list += (list.empty() ? "\"" : "|\"") + option + "\"";
                    }
                    return list;
                }() + " or null");
        }
        return;
    }
    if (const auto text = reader.string("value", true, 1); text && text->size() > 255) {
        reader.issue("value", "Too big: expected string to have <=255 characters");
    }
}

/// A condition: plain, {glob: plain branch}, or {not: plain | glob} (one level, as Argos).
void check_condition(const Json& condition, Validation& validation, const std::string& path,
                     bool inside_not = false) {
    if (condition.is_object() && condition.contains("not") && !inside_not) {
        check_condition(condition.at("not"), validation, path + ".not", true);
        return;
    }
    if (condition.is_object() && condition.contains("glob")) {
        check_plain_condition(condition.at("glob"), validation, path + ".glob", true);
        return;
    }
    check_plain_condition(condition, validation, path, false);
}

/// A string field of an action's payload (`required` or "" when absent).
std::string payload_text(JsonReader& payload, const char* key, bool required) {
    return payload.string(key, required).value_or("");
}

Json resolve_action(const Json& action, const AutomationSettings& settings, Validation& validation,
                    const std::string& path) {
    if (!action.is_object()) {
        validation.add(path, expected_message("object", &action));
        return nullptr;
    }
    JsonReader reader(action, validation, path);
    const auto type = reader.one_of(
        "type", true,
        {"sendSlackMessage", "sendMsTeamsMessage", "sendDiscordMessage", "sendWebhook"});
    const Json* payload_json = reader.object("payload", true);
    if (!type || payload_json == nullptr)
        return nullptr;
    JsonReader payload(*payload_json, validation, path + ".payload");
    if (*type == "sendSlackMessage") {
        const std::string slack_id = payload_text(payload, "slackId", false);
        const std::string name = payload_text(payload, "name", true);
        if (slack_id.empty() && name.empty() && payload_json->contains("name")) {
            payload.issue("name", "Too small: expected string to have >=1 characters");
        }
        return Json{{"action", *type}, {"actionPayload", {{"slackId", slack_id}, {"name", name}}}};
    }
    if (*type == "sendWebhook") {
        const std::string url = payload_text(payload, "url", true);
        if (payload_json->contains("url") && (!is_http_url(url) || url.size() > 2048)) {
            payload.issue("url", "Invalid URL: expected an http:// or https:// URL");
        } else if (const auto refusal = refused_webhook_address(settings.webhook_addresses, url)) {
            payload.issue("url",
                          "Invalid URL: " + *refusal +
                              " (allow it with plugins.automation.webhook_allowed_networks)");
        }
        return Json{{"action", *type}, {"actionPayload", {{"url", url}}}};
    }
    const std::string webhook_id = payload_text(payload, "webhookId", true);
    return Json{{"action", *type}, {"actionPayload", {{"webhookId", webhook_id}}}};
}

}  // namespace

void check_chat_targets(const RuleDefinition& rule, const ChatTargetCheck& available) {
    Validation validation;
    for (std::size_t i = 0; i < rule.actions.size(); ++i) {
        const Json& action = rule.actions[i];
        const auto type = action.value("action", std::string());
        const std::string path = "actions." + std::to_string(i);
        if (type == "sendSlackMessage" && !available("slack", "")) {
            validation.add(path + ".type",
                           "Slack is not configured for this team (its chat services) nor on this "
                           "server (plugins.automation.slack_bot_token)");
        } else if (type == "sendMsTeamsMessage" || type == "sendDiscordMessage") {
            const bool teams = type == "sendMsTeamsMessage";
            const auto id = action["actionPayload"].value("webhookId", std::string());
            if (!available(teams ? "teams" : "discord", id)) {
                validation.add(path + ".payload.webhookId",
                               std::string("No ") + (teams ? "Microsoft Teams" : "Discord") +
                                   " webhook is configured with this id");
            }
        }
    }
    validation.throw_if_any();
}

RuleDefinition read_rule_definition(const Json& body, const AutomationSettings& settings) {
    Validation validation;
    JsonReader reader(body, validation);
    RuleDefinition rule;
    if (auto name = reader.string("name", true, 3)) {
        if (name->size() > 100) {
            reader.issue("name", "Too big: expected string to have <=100 characters");
        }
        rule.name = *name;
    }
    if (const Json* events = reader.array("events", true, 1)) {
        for (std::size_t i = 0; i < events->size(); ++i) {
            const Json& event = (*events)[i];
            if (!event.is_string() || std::find(event_names.begin(), event_names.end(),
                                                event.get<std::string>()) == event_names.end()) {
                validation.add("events." + std::to_string(i),
                               "Invalid option: expected one of \"build.completed\"|"
                               "\"build.reviewed\"");
                continue;
            }
            const auto name = event.get<std::string>();
            if (std::find(rule.events.begin(), rule.events.end(), name) == rule.events.end()) {
                rule.events.push_back(name);
            }
        }
    }
    if (const Json* conditions = reader.array("conditions", false)) {
        if (conditions->size() > 50) {
            reader.issue("conditions", "Too big: expected array to have <=50 items");
        }
        for (std::size_t i = 0; i < conditions->size() && i < 50; ++i) {
            check_condition((*conditions)[i], validation, "conditions." + std::to_string(i));
        }
        rule.conditions = *conditions;
    }
    if (const Json* actions = reader.array("actions", true, 1)) {
        if (actions->size() > 20) {
            reader.issue("actions", "Too big: expected array to have <=20 items");
        }
        for (std::size_t i = 0; i < actions->size() && i < 20; ++i) {
            rule.actions.push_back(resolve_action((*actions)[i], settings, validation,
                                                  "actions." + std::to_string(i)));
        }
    }
    validation.throw_if_any();
    return rule;
}

}  // namespace loupe::automation
