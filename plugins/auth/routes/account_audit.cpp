// GET /_loupe/accounts/{accountSlug}/audit: the team's administration trail for its admins,
// newest first: who changed what (member roles, joins and removals, invites, the invite link,
// email domains, the default role), to whom, from which value to which. `actor` is null for a
// change made with `loupe admin` on the server; a deleted user reads null as well.
#include "loupe/http/pagination.hpp"
#include "routes/routes.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

Json optional_text(const std::optional<std::string>& text) {
    return text ? Json(*text) : Json();
}

Pagination read_audit_query(Request& request) {
    Validation validation;
    const Pagination pagination = parse_pagination(request, validation);
    validation.throw_if_any();
    return pagination;
}

}  // namespace

void add_account_audit(Host& host) {
    host.routes().add_validated(
        Method::get, "/_loupe/accounts/{accountSlug}/audit", AuthRequirement::personal_token,
        RouteAccess::account(AccountPermission::admin,
                             "You are not an administrator of this team."),
        read_audit_query, [&host](Request& request, const Pagination& pagination) {
            const Account& account = request.access().require_account();
            const auto page = host.db().transaction([&](soci::session& session) {
                return team_audit::list(session, account.id, pagination.offset(),
                                        pagination.limit());
            });
            auto& identity = host.identity();
            const auto user = [&identity](const std::optional<int64_t>& id) {
                return id ? identity.user_ref(*id) : Json();
            };
            Json results = Json::array();
            for (const auto& stored : page.entries) {
                results.push_back(Json{{"id", std::to_string(stored.id)},
                                       {"action", stored.entry.action},
                                       {"actor", user(stored.entry.actor_user_id)},
                                       {"subject", user(stored.entry.subject_user_id)},
                                       {"before", optional_text(stored.entry.before)},
                                       {"after", optional_text(stored.entry.after)},
                                       {"createdAt", iso_time(stored.created_at)}});
            }
            return Response::json(page_envelope(pagination, page.total, std::move(results)));
        });
}

}  // namespace loupe::auth
