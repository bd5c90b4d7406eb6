#include "loupe/http/http_error.hpp"
#include "loupe/text/html.hpp"
#include "message/unsubscribe_token.hpp"
#include "routes/notification_kinds.hpp"
#include "routes/routes.hpp"
#include "store/notification_preferences.hpp"

namespace loupe::notifications {
namespace {

std::string description_of(const std::string& kind) {
    if (kind == "mention") {
        return "mails about mentions";
    }
    if (kind == "reply") {
        return "mails about replies in threads you follow";
    }
    if (kind == "review_request") {
        return "mails asking you to review a build";
    }
    if (kind == "test_comment") {
        return "mails about new comments on tests you follow";
    }
    if (kind == "build_status") {
        return "mails about builds you follow concluding";
    }
    if (kind == "build_review") {
        return "mails about approvals and change requests on builds you follow";
    }
    return "notification mails";
}

/// Turns off the kind of mail the token names for its user; 400 for a bad or expired token.
Response unsubscribe(Host& host, Request& request) {
    const auto token = request.query("token");
    if (!token || token->empty()) {
        throw HttpError::invalid({"token is required"});
    }
    const auto claim = host.db().transaction([&](soci::session& session) {
        auto verified = verify_unsubscribe_token(unsubscribe_secret(session), *token, now_ms());
        if (verified && host.identity().find_user(verified->user_id)) {
            set_kind_enabled(session, verified->user_id, verified->kind, false, now_ms());
        }
        return verified;
    });
    if (!claim) {
        throw HttpError::bad_request("This unsubscribe link is invalid or has expired");
    }
    const std::string page =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Unsubscribed</title></head>"
        "<body style=\"font-family:sans-serif\"><p>You will no longer receive " +
        html_escape(description_of(claim->kind)) + " from Loupe.</p></body></html>";
    return Response::text(page, "text/html; charset=utf-8")
        .with_header("Cache-Control", "no-store");
}

}  // namespace

void add_unsubscribe_routes(Host& host) {
    const auto access = RouteAccess::public_route(
        "the signed unsubscribe token names the user and kind of mail (one-click unsubscribe)");
    host.routes().add(Method::get, "/_loupe/notifications/unsubscribe", AuthRequirement::none,
                      access, [&host](Request& request) { return unsubscribe(host, request); });
    // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` as a form.
    host.routes().add(
        Method::post, "/_loupe/notifications/unsubscribe", AuthRequirement::none, access,
        [&host](Request& request) { return unsubscribe(host, request); },
        RouteOptions{.body = BodyMode::form});
}

}  // namespace loupe::notifications
