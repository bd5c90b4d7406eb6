#include "routes/rule_routes.hpp"

#include <soci/soci.h>

#include "actions/webhook_signature.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/http/pagination.hpp"
#include "routes/rule_json.hpp"
#include "rules/rule_definition.hpp"
#include "store/rules.hpp"

namespace loupe::automation {
namespace {

constexpr const char* rules_path = "/projects/{owner}/{project}/automation-rules";
constexpr const char* not_admin =
    "You must be an administrator of this project to manage its "
    "automation rules.";

RouteAccess admin_access() {
    return RouteAccess::project(ProjectPermission::admin, not_admin);
}

struct ListInput {
    Pagination pagination;
    std::optional<bool> active;
};

ListInput read_list_input(Request& request) {
    Validation validation;
    ListInput input;
    input.pagination = parse_pagination(request, validation);
    if (const auto active = request.query("active")) {
        if (*active == "true" || *active == "false") {
            input.active = *active == "true";
        } else {
            validation.add("active", "Invalid option: expected one of \"true\"|\"false\"");
        }
    }
    validation.throw_if_any();
    return input;
}

int64_t rule_id_of(Request& request) {
    const auto id = parse_rule_id(request.param("ruleId"));
    if (!id)
        throw HttpError::not_found("Automation rule not found");
    return *id;
}

/// 400 for an action naming a chat service the project's team cannot post to.
void check_targets_of(soci::session& session, const ChatTargets& targets, const Project& project,
                      const RuleDefinition& definition) {
    check_chat_targets(definition, [&](const std::string& kind, const std::string& name) {
        return kind == "slack" ? targets.has_slack(session, project.account_id)
                               : targets.has_webhook(session, project.account_id, kind, name);
    });
}

}  // namespace

void add_rule_routes(Host& host, const AutomationSettings& settings, const ChatTargets& targets) {
    auto& database = host.db();
    const std::string path = rules_path;
    host.routes().add_validated(
        Method::get, path, AuthRequirement::personal_token, admin_access(), read_list_input,
        [&database](Request& request, const ListInput& input) {
            const Project& project = request.access().require_project();
            auto session = database.session();
            Json results = Json::array();
            for (const auto& rule :
                 list_rules(*session, project.id, input.active, input.pagination.limit(),
                            input.pagination.offset())) {
                results.push_back(rule_json(rule));
            }
            return Response::json(page_envelope(input.pagination,
                                                count_rules(*session, project.id, input.active),
                                                std::move(results)));
        });
    host.routes().add_validated(
        Method::post, path, AuthRequirement::personal_token, admin_access(),
        [&settings](Request& request) {
            return read_rule_definition(object_body(request), settings);
        },
        [&database, &targets](Request& request, const RuleDefinition& definition) {
            const Project& project = request.access().require_project();
            const std::string secret = new_webhook_secret();
            const auto rule = database.transaction([&](soci::session& session) {
                check_targets_of(session, targets, project, definition);
                const int64_t id = insert_rule(session, project.id, definition, secret, now_ms());
                return find_rule(session, project.id, id);
            });
            Json json = rule_json(*rule);
            // Shown once: the key receivers of sendWebhook actions verify signatures with.
            json["webhookSecret"] = secret;
            return Response::json(json, 201);
        });
    host.routes().add(Method::get, path + "/{ruleId}", AuthRequirement::personal_token,
                      admin_access(), [&database](Request& request) {
                          const int64_t id = rule_id_of(request);
                          auto session = database.session();
                          const auto rule =
                              find_rule(*session, request.access().require_project().id, id);
                          if (!rule)
                              throw HttpError::not_found("Automation rule not found");
                          return Response::json(rule_json(*rule));
                      });
    host.routes().add_validated(
        Method::put, path + "/{ruleId}", AuthRequirement::personal_token, admin_access(),
        [&settings](Request& request) {
            return read_rule_definition(object_body(request), settings);
        },
        [&database, &targets](Request& request, const RuleDefinition& definition) {
            const int64_t id = rule_id_of(request);
            const Project& project = request.access().require_project();
            const int64_t project_id = project.id;
            const auto rule = database.transaction([&](soci::session& session) {
                check_targets_of(session, targets, project, definition);
                return update_rule(session, project_id, id, definition, now_ms())
                           ? find_rule(session, project_id, id)
                           : std::nullopt;
            });
            if (!rule)
                throw HttpError::not_found("Automation rule not found");
            return Response::json(rule_json(*rule));
        });
    host.routes().add(Method::post, path + "/{ruleId}/deactivate", AuthRequirement::personal_token,
                      admin_access(), [&database](Request& request) {
                          const int64_t id = rule_id_of(request);
                          const int64_t project_id = request.access().require_project().id;
                          const auto rule = database.transaction([&](soci::session& session) {
                              return deactivate_rule(session, project_id, id, now_ms())
                                         ? find_rule(session, project_id, id)
                                         : std::nullopt;
                          });
                          if (!rule)
                              throw HttpError::not_found("Automation rule not found");
                          return Response::json(rule_json(*rule));
                      });
}

}  // namespace loupe::automation
