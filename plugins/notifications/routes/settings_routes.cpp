#include <string>
#include <vector>

#include "loupe/http/http_error.hpp"
#include "routes/notification_kinds.hpp"
#include "routes/routes.hpp"
#include "store/notification_preferences.hpp"

namespace loupe::notifications {
namespace {

Json settings_of(Host& host, bool mail_configured, int64_t user_id) {
    return host.db().transaction([&](soci::session& session) {
        const auto choices = explicit_preferences(session, user_id);
        const auto email = host.identity().user_email(session, user_id);
        Json json{{"mailConfigured", mail_configured},
                  {"email", email ? Json(*email) : Json(nullptr)}};
        for (const auto& name : notification_kind_names) {
            const auto found = choices.find(std::string(name.kind));
            json[std::string(name.api_field)] = found == choices.end() || found->second;
        }
        return json;
    });
}

/// The kinds a PATCH body changes; 400 for anything else.
std::vector<std::pair<std::string, bool>> changes_of(const Json& body) {
    if (!body.is_object()) {
        throw HttpError::invalid({"The body must be a JSON object"});
    }
    std::vector<std::pair<std::string, bool>> changes;
    std::vector<std::string> problems;
    for (const auto& [field, value] : body.items()) {
        bool known = false;
        for (const auto& name : notification_kind_names) {
            if (name.api_field == field) {
                known = true;
                if (value.is_boolean()) {
                    changes.emplace_back(std::string(name.kind), value.get<bool>());
                } else {
                    problems.push_back(field + " must be true or false");
                }
            }
        }
        if (!known && field != "email" && field != "mailConfigured") {
            problems.push_back("Unknown field " + field);
        }
    }
    if (!problems.empty()) {
        throw HttpError::invalid(problems);
    }
    return changes;
}

}  // namespace

void add_settings_routes(Host& host, const MailSettings& settings) {
    const bool mail_configured = settings.enabled();
    host.routes().add(
        Method::get, "/_loupe/notifications/settings", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host, mail_configured](Request& request) {
            return Response::json(settings_of(host, mail_configured, request.principal().user_id));
        });
    host.routes().add_validated(
        Method::patch, "/_loupe/notifications/settings", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [](Request& request) { return changes_of(request.json()); },
        [&host, mail_configured](Request& request,
                                 std::vector<std::pair<std::string, bool>>& changes) {
            const int64_t user_id = request.principal().user_id;
            host.db().transaction([&](soci::session& session) {
                for (const auto& [kind, enabled] : changes) {
                    set_kind_enabled(session, user_id, kind, enabled, now_ms());
                }
            });
            return Response::json(settings_of(host, mail_configured, user_id));
        });
}

}  // namespace loupe::notifications
