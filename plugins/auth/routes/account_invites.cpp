// A team's invites and shared invite link, administered by its owners: list the pending
// invites, invite people by email (each gets a link to join; the answer carries it, for the
// owner to pass on when no mail is sent), cancel one, and reset the team's link.
#include <regex>

#include "loupe/http/json_reader.hpp"
#include "loupe/http/pagination.hpp"
#include "loupe/http/single_query.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

constexpr std::size_t max_invites_per_request = 100;

struct InviteListInput {
    Pagination pagination;
    std::string search;
};

InviteListInput read_invite_list_input(Request& request) {
    Validation validation;
    InviteListInput input;
    input.pagination = parse_pagination(request, validation);
    if (auto search = single_query(request, "search", validation)) {
        input.search = *search;
    }
    validation.throw_if_any();
    return input;
}

bool is_email_address(const std::string& text) {
    static const std::regex address(R"(^[^@\s]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$)");
    return text.size() <= 254 && std::regex_match(text, address);
}

std::vector<InviteRequest> read_invite_requests(Request& request) {
    Validation validation;
    JsonReader body(object_body(request), validation);
    std::vector<InviteRequest> requests;
    if (const Json* members = body.array("members", true, 1)) {
        if (members->size() > max_invites_per_request) {
            validation.add("members", "Too big: expected array to have <=100 items");
        }
        for (std::size_t i = 0; i < members->size() && i < max_invites_per_request; ++i) {
            const Json& item = (*members)[i];
            const std::string path = "members." + std::to_string(i);
            if (!item.is_object()) {
                validation.add(path, "Invalid input: expected object");
                continue;
            }
            JsonReader member(item, validation, path);
            const auto email = member.string("email", true, 1);
            const auto level = member.one_of("level", true, {"owner", "member", "contributor"});
            if (!email || !level) {
                continue;
            }
            const std::string lowered = to_lower(trim(*email));
            if (!is_email_address(lowered)) {
                validation.add(path + ".email", "Invalid email address");
                continue;
            }
            requests.push_back({lowered, parse_role(*level).value_or(Role::member)});
        }
    }
    validation.throw_if_any();
    return requests;
}

int64_t invite_id_of(Request& request) {
    const std::string text = request.param("inviteId");
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
        throw HttpError::not_found("Invite not found.");
    }
    return std::stoll(text);
}

Json team_invite_json(const TeamInvite& invite, int64_t now) {
    return Json{
        {"id", std::to_string(invite.id)},          {"email", invite.email},
        {"level", role_name(invite.level)},         {"createdAt", iso_time(invite.created_at)},
        {"expiresAt", iso_time(invite.expires_at)}, {"expired", invite.expires_at <= now}};
}

std::string join_url(Host& host, const std::string& token) {
    return host.public_url() + "/_loupe/join/" + token;
}

}  // namespace

void add_account_invites(Host& host, InviteStore& invites) {
    const auto admin_only = RouteAccess::account(AccountPermission::admin,
                                                 "You are not an administrator of this team.");

    host.routes().add_validated(
        Method::get, "/accounts/{accountSlug}/invites", AuthRequirement::project_or_personal_token,
        admin_only, read_invite_list_input,
        [&invites](Request& request, const InviteListInput& input) {
            const auto page = invites.pending(request.access().require_account(), input.search,
                                              input.pagination.offset(), input.pagination.limit());
            const int64_t now = now_ms();
            Json results = Json::array();
            for (const auto& invite : page.invites) {
                results.push_back(team_invite_json(invite, now));
            }
            return Response::json(page_envelope(input.pagination, page.total, std::move(results)));
        });

    host.routes().add_validated(
        Method::post, "/accounts/{accountSlug}/invites", AuthRequirement::project_or_personal_token,
        admin_only, read_invite_requests,
        [&host, &invites](Request& request, const std::vector<InviteRequest>& requests) {
            const auto made = invites.invite(request.access().require_account(),
                                             request.principal().user_id, requests);
            const int64_t now = now_ms();
            Json results = Json::array();
            for (const auto& invite : made) {
                Json item = team_invite_json(invite, now);
                // Shown once: only its hash is stored.
                item["inviteLink"] = join_url(host, invite.token);
                results.push_back(std::move(item));
            }
            return Response::json(results, 201);
        });

    host.routes().add_validated(Method::del, "/accounts/{accountSlug}/invites/{inviteId}",
                                AuthRequirement::project_or_personal_token, admin_only,
                                invite_id_of, [&invites](Request& request, int64_t invite_id) {
                                    invites.cancel(request.access().require_account(),
                                                   request.principal().user_id, invite_id);
                                    return Response::no_content();
                                });

    host.routes().add(Method::post, "/accounts/{accountSlug}/invite-link/reset",
                      AuthRequirement::project_or_personal_token, admin_only,
                      [&host, &invites](Request& request) {
                          const auto token = invites.reset_link(request.access().require_account(),
                                                                request.principal().user_id);
                          return Response::json(Json{{"inviteLink", join_url(host, token)}});
                      });
}

}  // namespace loupe::auth
