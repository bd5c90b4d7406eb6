#include "actions/messages.hpp"

#include <string_view>
#include <vector>

namespace loupe::automation {
namespace {

/// Slack mrkdwn: &, < and > are the only characters to escape.
std::string slack_escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else
            out += c;
    }
    return out;
}

/// Markdown (Teams TextBlocks, Discord): a backslash before every character markdown reads.
std::string markdown_escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (std::string_view("\\`*_~|[]()<>#-+!").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

std::string short_commit(const std::string& commit) {
    return commit.substr(0, 7);
}

struct Detail {
    std::string title;
    std::string value;  ///< plain text
};

std::vector<Detail> details_of(const EventFacts& facts) {
    std::vector<Detail> details;
    if (const std::string stats = stats_text(facts.stats); !stats.empty()) {
        details.push_back({"Screenshots", stats});
    }
    if (!facts.branch.empty())
        details.push_back({"Branch", facts.branch});
    if (!facts.commit.empty())
        details.push_back({"Commit", short_commit(facts.commit)});
    if (facts.pr_number)
        details.push_back({"PR", "#" + std::to_string(*facts.pr_number)});
    return details;
}

std::string project_label(const EventFacts& facts) {
    return facts.account_slug + "/" + facts.project_name;
}

}  // namespace

Json slack_message(const EventFacts& facts, const std::string& channel) {
    Json fields = Json::array();
    for (const auto& detail : details_of(facts)) {
        fields.push_back({{"type", "mrkdwn"},
                          {"text", "*" + detail.title + "*\n" + slack_escape(detail.value)}});
    }
    Json blocks = Json::array();
    blocks.push_back({{"type", "context"},
                      {"elements",
                       {{{"type", "mrkdwn"},
                         {"text", "Project: *" + slack_escape(project_label(facts)) + "*"}}}}});
    blocks.push_back({{"type", "section"},
                      {"text",
                       {{"type", "mrkdwn"},
                        {"text", "<" + facts.build_url + "|" + slack_escape(headline(facts)) +
                                     ">\n" + slack_escape(status_line(facts))}}}});
    blocks.push_back({{"type", "divider"}});
    if (!fields.empty())
        blocks.push_back({{"type", "section"}, {"fields", fields}});
    return Json{{"channel", channel},
                {"text", headline(facts)},
                {"blocks", blocks},
                {"unfurl_links", false}};
}

Json teams_message(const EventFacts& facts) {
    Json facts_set = Json::array();
    for (const auto& detail : details_of(facts)) {
        facts_set.push_back({{"title", detail.title}, {"value", markdown_escape(detail.value)}});
    }
    Json body = Json::array();
    body.push_back({{"type", "TextBlock"},
                    {"text", "[" + markdown_escape(headline(facts)) + "](" + facts.build_url + ")"},
                    {"wrap", true},
                    {"size", "medium"},
                    {"weight", "bolder"}});
    body.push_back({{"type", "TextBlock"},
                    {"text", "Project: **" + markdown_escape(project_label(facts)) + "**"},
                    {"wrap", true},
                    {"size", "small"},
                    {"isSubtle", true},
                    {"spacing", "none"}});
    body.push_back({{"type", "TextBlock"},
                    {"text", markdown_escape(status_line(facts))},
                    {"wrap", true},
                    {"spacing", "medium"}});
    if (!facts_set.empty())
        body.push_back({{"type", "FactSet"}, {"facts", facts_set}});
    const Json card = {
        {"$schema", "http://adaptivecards.io/schemas/adaptive-card.json"},
        {"type", "AdaptiveCard"},
        {"version", "1.4"},
        {"body", body},
        {"actions",
         {{{"type", "Action.OpenUrl"}, {"title", "Open build"}, {"url", facts.build_url}}}}};
    return Json{{"type", "message"},
                {"attachments",
                 {{{"contentType", "application/vnd.microsoft.card.adaptive"},
                   {"contentUrl", nullptr},
                   {"content", card}}}}};
}

Json discord_message(const EventFacts& facts) {
    Json fields = Json::array();
    for (const auto& detail : details_of(facts)) {
        fields.push_back({{"name", detail.title},
                          {"value", markdown_escape(detail.value.substr(0, 1000))},
                          {"inline", detail.title != "PR"}});
    }
    // Discord colours: green for no changes and approvals, orange for changes, red rejections.
    int color = 0x5865F2;
    if (facts.review == "approved" || facts.conclusion == "no-changes")
        color = 0x2EA043;
    if (facts.conclusion == "changes-detected" && !facts.review)
        color = 0xD29922;
    if (facts.review == "rejected")
        color = 0xCF222E;
    const Json embed = {{"title", headline(facts).substr(0, 256)},
                        {"url", facts.build_url},
                        {"description", markdown_escape(status_line(facts))},
                        {"color", color},
                        {"author", {{"name", project_label(facts).substr(0, 256)}}},
                        {"fields", fields},
                        {"timestamp", iso_time(facts.occurred_at)}};
    return Json{{"embeds", {embed}}, {"allowed_mentions", {{"parse", Json::array()}}}};
}

Json webhook_message(const EventFacts& facts) {
    Json data = to_json(facts);
    data.erase("eventId");
    data.erase("event");
    data.erase("occurredAt");
    return Json{{"type", facts.event},
                {"id", facts.event_id},
                {"timestamp", iso_time(facts.occurred_at)},
                {"data", data}};
}

Json message_for_action(const std::string& action, const Json& action_payload,
                        const EventFacts& facts) {
    if (action == "sendSlackMessage") {
        const std::string id = action_payload.value("slackId", "");
        return slack_message(facts, id.empty() ? action_payload.value("name", "") : id);
    }
    if (action == "sendMsTeamsMessage")
        return teams_message(facts);
    if (action == "sendDiscordMessage")
        return discord_message(facts);
    return webhook_message(facts);
}

}  // namespace loupe::automation
