#include "actions/event_facts.hpp"

#include "loupe/events/events.hpp"

namespace loupe::automation {

Json to_json(const EventFacts& facts) {
    return Json{{"eventId", facts.event_id},
                {"event", facts.event},
                {"occurredAt", facts.occurred_at},
                {"accountSlug", facts.account_slug},
                {"projectName", facts.project_name},
                {"buildId", facts.build_id},
                {"buildNumber", facts.build_number},
                {"buildName", facts.build_name},
                {"buildUrl", facts.build_url},
                {"branch", facts.branch},
                {"commit", facts.commit},
                {"prNumber", optional_json(facts.pr_number)},
                {"mode", facts.mode},
                {"status", facts.status},
                {"conclusion", optional_json(facts.conclusion)},
                {"type", optional_json(facts.type)},
                {"stats", facts.stats},
                {"review", optional_json(facts.review)},
                {"reviewer", facts.reviewer}};
}

EventFacts event_facts_from_json(const Json& json) {
    EventFacts facts;
    facts.event_id = json.value("eventId", "");
    facts.event = json.value("event", "");
    facts.occurred_at = json.value("occurredAt", int64_t{0});
    facts.account_slug = json.value("accountSlug", "");
    facts.project_name = json.value("projectName", "");
    facts.build_id = json.value("buildId", int64_t{0});
    facts.build_number = json.value("buildNumber", int64_t{0});
    facts.build_name = json.value("buildName", "default");
    facts.build_url = json.value("buildUrl", "");
    facts.branch = json.value("branch", "");
    facts.commit = json.value("commit", "");
    facts.pr_number = optional_field<int64_t>(json, "prNumber");
    facts.mode = json.value("mode", "ci");
    facts.status = json.value("status", "");
    facts.conclusion = optional_field<std::string>(json, "conclusion");
    facts.type = optional_field<std::string>(json, "type");
    facts.stats = json.value("stats", Json());
    facts.review = optional_field<std::string>(json, "review");
    facts.reviewer = json.value("reviewer", "");
    return facts;
}

std::string stats_text(const Json& stats) {
    if (!stats.is_object())
        return "";
    std::string text;
    for (const char* key : {"changed", "added", "removed", "failure", "unchanged", "ignored"}) {
        const int64_t count = stats.value(key, int64_t{0});
        if (count > 0) {
            text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + key;
        }
    }
    return text.empty() ? "no screenshots" : text;
}

std::string headline(const EventFacts& facts) {
    std::string text = "Build #" + std::to_string(facts.build_number);
    if (facts.build_name != "default")
        text += " (" + facts.build_name + ")";
    if (facts.event == "build.reviewed") {
        return text + " has been " + facts.review.value_or("reviewed");
    }
    if (facts.event == "test") {
        // Sent from the page to check a rule's targets: says so, about the newest build if any.
        return "Test message from Loupe" +
               (facts.build_number > 0 ? " about build #" + text.substr(7) : std::string());
    }
    return text + " completed";
}

std::string status_line(const EventFacts& facts) {
    if (facts.event == "build.reviewed") {
        const bool approved = facts.review == "approved";
        const std::string who = facts.reviewer.empty() ? "Unknown" : facts.reviewer;
        return std::string(approved ? "👍 Approved by " : "👎 Rejected by ") + who;
    }
    if (facts.conclusion == "changes-detected")
        return "⚠️ Changes detected";
    if (facts.conclusion == "no-changes")
        return "✅ No changes detected";
    return "ℹ️ " + facts.status;
}

}  // namespace loupe::automation
