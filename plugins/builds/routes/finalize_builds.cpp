// POST /builds/finalize: completes the parallel builds of a nonce whose shards
// were sent with `parallelTotal: -1`.
#include <soci/soci.h>

#include "build_resources.hpp"
#include "finalize.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "uploads/upload_policy.hpp"

namespace loupe::builds {

void add_finalize_builds(Host& host, const BuildEvents& events) {
    auto& database = host.db();
    auto& jobs = host.jobs();
    host.routes().add_validated(
        Method::post, "/builds/finalize", AuthRequirement::project_token,
        RouteAccess::token_project(),
        [](Request& request) {
            const Json& body = object_body(request);
            Validation validation;
            JsonReader reader(body, validation);
            auto nonce = reader.string("parallelNonce", true, 1);
            validation.throw_if_any();
            return *nonce;
        },
        [&, host_ptr = &host](Request& request, const std::string& nonce) {
            const auto& principal = request.principal();
            const Project* project = &request.access().require_project();
            const auto dialect = database.dialect();
            Json builds = database.transaction([&](soci::session& session) {
                Json list = Json::array();
                for (auto id : builds_awaiting_finalize(session, project->id, nonce)) {
                    auto build = find_build(session, dialect, id, true);
                    check_bound_run(principal, *build);
                    if (!build->complete) {
                        build->metadata = shard_metadata(session, build->id);
                        finalize_build(session, jobs, events, *build);
                    }
                    list.push_back(render_build(session, *build, *project, host_ptr->public_url()));
                }
                return list;
            });
            return Response::json({{"builds", builds}});
        });
}

}  // namespace loupe::builds
