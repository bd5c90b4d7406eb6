#include "message/digest_message.hpp"

#include "loupe/text/html.hpp"

namespace loupe::notifications {
namespace {

std::string what_happened(const NotificationItem& item) {
    std::string where = item.project + " build #" + std::to_string(item.build_number);
    if (!item.test_name.empty()) {
        where = item.project + " test " + item.test_name;
    } else if (!item.media_name.empty()) {
        where = item.project + " media " + item.media_name;
    }
    if (item.kind == "test_comment") {
        return item.actor_name + " commented on " + where;
    }
    if (item.kind == "mention") {
        return item.actor_name + " mentioned you on " + where;
    }
    if (item.kind == "review_request") {
        return item.actor_name + " asked you to review " + where;
    }
    if (item.kind == "build_status") {
        // `decision` holds the conclusion: changes-detected | no-changes.
        return where +
               (item.decision == "changes-detected" ? " has changes to review" : " has no changes");
    }
    if (item.kind == "build_review") {
        return item.actor_name +
               (item.decision == "approved" ? " approved " : " requested changes on ") + where;
    }
    return item.actor_name + " replied in a thread you follow on " + where;
}

/// The comment quoted line by line, as mail clients show replies.
std::string quoted(const std::string& body) {
    std::string text = "> ";
    for (const char c : body) {
        text += c;
        if (c == '\n') {
            text += "> ";
        }
    }
    return text;
}

}  // namespace

Json to_payload(const NotificationItem& item) {
    return Json{{"actorName", item.actor_name},
                {"project", item.project},
                {"buildNumber", item.build_number},
                {"testName", item.test_name},
                {"mediaName", item.media_name},
                {"url", item.url},
                {"body", item.body},
                {"decision", item.decision}};
}

NotificationItem item_of_payload(const std::string& kind, const Json& payload) {
    NotificationItem item;
    item.kind = kind;
    item.actor_name = payload.value("actorName", std::string("Someone"));
    item.project = payload.value("project", std::string());
    item.build_number = payload.value("buildNumber", int64_t{0});
    item.test_name = payload.value("testName", std::string());
    item.media_name = payload.value("mediaName", std::string());
    item.url = payload.value("url", std::string());
    item.body = payload.value("body", std::string());
    item.decision = payload.value("decision", std::string());
    return item;
}

std::string header_safe(const std::string& text) {
    std::string safe;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        safe += (byte < 0x20 || byte == 0x7f) ? ' ' : c;
    }
    return safe;
}

DigestMessage build_digest(const std::vector<NotificationItem>& items,
                           const std::string& unsubscribe_url, const std::string& home_url) {
    DigestMessage message;
    if (items.size() == 1) {
        message.subject =
            header_safe("[" + items.front().project + "] " + what_happened(items.front()));
    } else {
        message.subject = "[Loupe] " + std::to_string(items.size()) + " new notifications";
    }
    message.html = "<!DOCTYPE html><html><body style=\"font-family:sans-serif;color:#1f2328\">";
    for (const auto& item : items) {
        // A comment is quoted under what happened; a review request or decision has no body.
        if (item.body.empty()) {
            message.text += what_happened(item) + ".\n\n" + item.url + "\n\n";
            message.html += "<div style=\"margin-bottom:24px\"><p>" +
                            html_escape(what_happened(item)) + ".</p>";
        } else {
            message.text +=
                what_happened(item) + ":\n\n" + quoted(item.body) + "\n\n" + item.url + "\n\n";
            message.html += "<div style=\"margin-bottom:24px\"><p>" +
                            html_escape(what_happened(item)) +
                            ":</p><blockquote style=\"white-space:pre-wrap;border-left:3px solid "
                            "#d0d7de;margin:0;padding-left:12px\">" +
                            html_escape(item.body) + "</blockquote>";
        }
        message.html += "<p><a href=\"" + html_escape(item.url) + "\">Open in Loupe</a></p></div>";
    }
    message.text += "-- \nStop these emails: " + unsubscribe_url + "\nLoupe: " + home_url + "\n";
    message.html += "<hr><p style=\"font-size:12px;color:#656d76\"><a href=\"" +
                    html_escape(unsubscribe_url) + "\">Unsubscribe</a> · <a href=\"" +
                    html_escape(home_url) + "\">Loupe</a></p></body></html>";
    return message;
}

}  // namespace loupe::notifications
