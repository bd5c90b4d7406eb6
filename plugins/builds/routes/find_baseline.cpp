// POST /baseline: the eligible baseline among a list of commits, for SDKs that
// resolve the baseline before uploading (the Argos CLI 6.x does).
#include <soci/soci.h>

#include "build_resources.hpp"
#include "loupe/http/json_reader.hpp"
#include "processing/baseline.hpp"
#include "routes/routes.hpp"
#include "validation.hpp"

namespace loupe::builds {
namespace {

struct FindBaselineInput {
    std::vector<std::string> commits;
    std::string name = "default";
    BuildMode mode = BuildMode::ci;
};

FindBaselineInput parse_find_baseline_input(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    FindBaselineInput input;
    input.commits =
        read_commit_list(reader, "commits", true, 1).value_or(std::vector<std::string>{});
    input.name = reader.string("name", false, 1).value_or("default");
    input.mode =
        *parse_state<BuildMode>(reader.one_of("mode", false, {"ci", "monitoring"}).value_or("ci"));
    validation.throw_if_any();
    return input;
}

}  // namespace

void add_find_baseline(Host& host) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::post, "/baseline", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::view), parse_find_baseline_input,
        [&, host_ptr = &host](Request& request, const FindBaselineInput& input) {
            const Project* project = &request.access().require_project();
            auto session = database.session();
            const auto rules = approval_rules(build_settings_of(*session, project->id), *project);
            auto baseline = find_eligible_baseline(*session, project->id, input.commits, input.name,
                                                   input.mode, rules);
            Json rendered = nullptr;
            if (baseline) {
                rendered = render_build(*session, *baseline, *project, host_ptr->public_url());
            }
            return Response::json({{"baseline", rendered}});
        });
}

}  // namespace loupe::builds
