#include "message/invite_message.hpp"

#include <ctime>

#include "loupe/text/html.hpp"

namespace loupe::notifications {
namespace {

/// "December 6, 2026" (UTC): the last day the link works.
std::string day_text(int64_t epoch_ms) {
    static const char* const months[] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
    const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
    std::tm day{};
    gmtime_r(&seconds, &day);
    return std::string(months[day.tm_mon]) + " " + std::to_string(day.tm_mday) + ", " +
           std::to_string(day.tm_year + 1900);
}

}  // namespace

DigestMessage build_invite_message(const auth::InviteMailLink& link) {
    const std::string team = link.team_name.empty() ? link.team_slug : link.team_name;
    const std::string inviter = link.inviter_name.value_or("");
    const std::string opening = inviter.empty() ? "You are invited" : inviter + " invited you";
    const std::string until = day_text(link.expires_at);
    DigestMessage mail;
    mail.subject = header_safe(opening + " to " + team + " on Loupe");
    mail.text = opening + " to join " + team + " on Loupe as " + link.level +
                ".\n\nJoin: " + link.url + "\n\nThe link works once, until " + until + ", for " +
                link.email + ". If you did not expect this invite, ignore this mail.\n";
    mail.html = "<p>" + html_escape(opening) + " to join <strong>" + html_escape(team) +
                "</strong> on Loupe as " + html_escape(link.level) + ".</p><p><a href=\"" +
                html_escape(link.url) + "\">Join " + html_escape(team) +
                "</a></p><p style=\"color:#6a6a75\">The link works once, until " +
                html_escape(until) + ", for " + html_escape(link.email) +
                ". If you did not expect this invite, ignore this mail.</p>";
    return mail;
}

}  // namespace loupe::notifications
