#include "routes/chat_target_routes.hpp"

#include <soci/soci.h>

#include <regex>

#include "loupe/http/json_reader.hpp"
#include "store/chat_targets.hpp"

namespace loupe::automation {
namespace {

constexpr const char* targets_path = "/_loupe/accounts/{accountSlug}/chat-targets";
constexpr const char* not_team_admin = "You are not an administrator of this team.";
constexpr std::size_t max_secret_length = 2048;
constexpr std::size_t hint_length = 4;

RouteAccess team_admin_access() {
    return RouteAccess::account(AccountPermission::admin, not_team_admin);
}

struct TargetName {
    std::string kind;
    std::string name;
};

/// The path's kind (slack | teams | discord) and name (Slack: "bot"; a webhook: 1 to 64 of
/// letters, digits, `-` and `_`, as rules name it in `webhookId`); 400 otherwise.
TargetName target_name_of(Request& request) {
    TargetName target{request.param("kind"), request.param("name")};
    Validation validation;
    if (target.kind != "slack" && target.kind != "teams" && target.kind != "discord") {
        validation.add("kind", "Invalid option: expected one of \"slack\"|\"teams\"|\"discord\"");
    } else if (target.kind == "slack" && target.name != slack_target_name) {
        validation.add("name", "A team has one Slack bot token, named \"bot\"");
    } else if (static const std::regex valid("[A-Za-z0-9_-]{1,64}");
               !std::regex_match(target.name, valid)) {
        validation.add("name", "Expected 1 to 64 letters, digits, '-' or '_'");
    }
    validation.throw_if_any();
    return target;
}

/// The last characters of a secret, to recognise it; nothing of a short one.
std::string hint_of(const std::string& secret) {
    return secret.size() > 3 * hint_length ? "…" + secret.substr(secret.size() - hint_length) : "";
}

Json target_json(const ChatTargetRow& target) {
    return {{"kind", target.kind},
            {"name", target.name},
            {"hint", target.hint},
            {"updatedAt", iso_time(target.updated_at)}};
}

}  // namespace

void add_chat_target_routes(Host& host, const AutomationSettings& settings,
                            const ChatTargets& targets) {
    auto& database = host.db();
    const std::string path = targets_path;
    host.routes().add(Method::get, path, AuthRequirement::personal_token, team_admin_access(),
                      [&database, &settings](Request& request) {
                          const Account& account = request.access().require_account();
                          auto session = database.session();
                          Json list = Json::array();
                          for (const auto& target : list_chat_targets(*session, account.id)) {
                              list.push_back(target_json(target));
                          }
                          // The operator's targets by name only: their secrets are the server's.
                          Json teams = Json::array();
                          Json discord = Json::array();
                          for (const auto& [name, url] : settings.teams_webhooks) {
                              teams.push_back(name);
                          }
                          for (const auto& [name, url] : settings.discord_webhooks) {
                              discord.push_back(name);
                          }
                          return Response::json({{"targets", list},
                                                 {"server",
                                                  {{"slack", !settings.slack_bot_token.empty()},
                                                   {"teams", teams},
                                                   {"discord", discord}}}});
                      });
    host.routes().add_validated(
        Method::put, path + "/{kind}/{name}", AuthRequirement::personal_token, team_admin_access(),
        [](Request& request) {
            const Json& body = object_body(request);
            Validation validation;
            JsonReader reader(body, validation);
            auto secret = reader.string("secret", true, 1);
            if (secret && secret->size() > max_secret_length) {
                reader.issue("secret", "Too big: expected string to have <=2048 characters");
            }
            validation.throw_if_any();
            return *secret;
        },
        [&database, &settings, &targets](Request& request, const std::string& secret) {
            const auto target = target_name_of(request);
            if (target.kind != "slack") {
                // A team's webhook is typed by an administrator, not the operator: like a rule's
                // sendWebhook URL, it may only reach public addresses.
                Validation validation;
                if (!is_http_url(secret)) {
                    validation.add("secret",
                                   "Invalid URL: expected the webhook's http:// or https:// URL");
                } else if (const auto refusal =
                               refused_webhook_address(settings.webhook_addresses, secret)) {
                    validation.add(
                        "secret",
                        "Invalid URL: " + *refusal +
                            " (allow it with plugins.automation.webhook_allowed_networks)");
                }
                validation.throw_if_any();
            }
            const Account& account = request.access().require_account();
            ChatTargetRow row;
            row.account_id = account.id;
            row.kind = target.kind;
            row.name = target.name;
            row.sealed_secret = targets.seal(account.id, target.kind, target.name, secret);
            row.hint = hint_of(secret);
            if (request.principal().is_user()) {
                row.created_by = request.principal().user_id;
            }
            const auto saved = database.transaction([&](soci::session& session) {
                save_chat_target(session, row, now_ms());
                return find_chat_target(session, account.id, target.kind, target.name);
            });
            return Response::json(target_json(*saved));
        });
    host.routes().add(Method::del, path + "/{kind}/{name}", AuthRequirement::personal_token,
                      team_admin_access(), [&database](Request& request) {
                          const auto target = target_name_of(request);
                          const Account& account = request.access().require_account();
                          const bool deleted = database.transaction([&](soci::session& session) {
                              return delete_chat_target(session, account.id, target.kind,
                                                        target.name);
                          });
                          if (!deleted) {
                              throw HttpError::not_found("Chat target not found");
                          }
                          return Response::no_content();
                      });
}

}  // namespace loupe::automation
