// GET /accounts/{accountSlug}/analytics: builds and screenshots of the account's projects the
// caller may view, counted per time bucket.
#include <soci/soci.h>

#include "analytics_json.hpp"
#include "analytics_query.hpp"
#include "buckets.hpp"
#include "routes/routes.hpp"
#include "series.hpp"

namespace loupe::analytics {
namespace {

// The projects counted: those named (within the account), else all of the account's, keeping
// only those the caller may view.
std::vector<Project> counted_projects(Identity& identity, int64_t user_id, const Account& account,
                                      const std::optional<std::vector<std::string>>& names) {
    std::vector<Project> candidates;
    if (names) {
        for (const auto& name : *names) {
            if (auto project = identity.find_project(account.slug, name)) {
                candidates.push_back(*project);
            }
        }
    } else {
        candidates = identity.visible_projects(user_id, account);
    }
    std::vector<Project> viewable;
    for (auto& project : candidates) {
        if (project.account_id == account.id && identity.permissions(user_id, project).view) {
            viewable.push_back(std::move(project));
        }
    }
    return viewable;
}

QueryLookup query_of(const Request& request) {
    return [&request](std::string_view name) {
        return QueryParam{request.query(name), request.query_count(name)};
    };
}

}  // namespace

void add_account_analytics(Host& host, builds::BuildsService& builds) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/accounts/{accountSlug}/analytics",
        AuthRequirement::personal_token_for_account,
        [](Request& request) { return parse_analytics_query(query_of(request), now_ms()); },
        [&identity, &database, &builds](Request& request, const AnalyticsQuery& query) {
            const auto& principal = request.principal();
            auto account = identity.authorize_account(principal, request.param("accountSlug"));
            check_analytics_range(query);
            const auto projects =
                counted_projects(identity, principal.user_id, account, query.project_names);
            std::vector<int64_t> project_ids;
            std::map<int64_t, std::string> project_names;
            for (const auto& project : projects) {
                project_ids.push_back(project.id);
                project_names[project.id] = project.name;
            }
            const auto starts = bucket_starts(query.from_ms, query.to_ms, query.group_by);
            std::vector<builds::BuildActivityRow> rows;
            if (!starts.empty()) {
                auto session = database.session();
                rows = builds.build_activity(*session, project_ids, starts.front(), query.to_ms,
                                             query.group_by);
            }
            return Response::json(analytics_json(assemble_analytics(starts, rows), project_names));
        });
}

}  // namespace loupe::analytics
