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

// The projects counted: those named (within the account), else those of the account with
// builds in the range; of them, only those the caller may view.
std::vector<Project> counted_projects(Identity& identity, Database& database,
                                      builds::BuildAnalytics& builds, int64_t user_id,
                                      const Account& account, const AnalyticsQuery& query,
                                      int64_t first_bucket) {
    std::vector<Project> candidates;
    if (query.project_names) {
        for (const auto& name : *query.project_names) {
            if (auto project = identity.find_project(account.slug, name)) {
                candidates.push_back(*project);
            }
        }
    } else {
        std::vector<int64_t> ids;
        {
            auto session = database.session();  // released before the identity opens its own
            ids = builds.account_projects_with_builds(*session, account.id, first_bucket,
                                                      query.to_ms);
        }
        for (auto id : ids) {
            if (auto project = identity.find_project(id)) {
                candidates.push_back(*project);
            }
        }
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
        auto values = request.query_values(name);
        return QueryParam{
            values.empty() ? std::nullopt : std::optional<std::string>(values.front()),
            values.size(), values};
    };
}

}  // namespace

void add_account_analytics(Host& host, builds::BuildAnalytics& builds) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/accounts/{accountSlug}/analytics",
        AuthRequirement::personal_token_for_account,
        // Only the projects the caller may view are counted (counted_projects).
        RouteAccess::account(AccountPermission::member),
        [](Request& request) { return parse_analytics_query(query_of(request), now_ms()); },
        [&identity, &database, &builds](Request& request, const AnalyticsQuery& query) {
            const auto& principal = request.principal();
            const Account& account = request.access().require_account();
            check_analytics_range(query);
            const auto starts = bucket_starts(query.from_ms, query.to_ms, query.group_by);
            std::vector<builds::BuildActivityRow> rows;
            std::map<int64_t, std::string> project_names;
            if (!starts.empty()) {
                std::vector<int64_t> project_ids;
                for (const auto& project :
                     counted_projects(identity, database, builds, principal.user_id, account, query,
                                      starts.front())) {
                    project_ids.push_back(project.id);
                    project_names[project.id] = project.name;
                }
                auto session = database.session();
                rows = builds.build_activity(*session, project_ids, starts.front(), query.to_ms,
                                             query.group_by);
            }
            return Response::json(analytics_json(assemble_analytics(starts, rows), project_names));
        });
}

}  // namespace loupe::analytics
