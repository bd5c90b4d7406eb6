// POST /deployments: a pending deployment of the declared files, and signed upload URLs for the
// contents Loupe does not hold yet (each hash once, at its first path).
#include <soci/soci.h>

#include <set>

#include "branch_glob.hpp"
#include "deployment_input.hpp"
#include "deployment_quota.hpp"
#include "routes/deployment_aliases.hpp"
#include "routes/routes.hpp"
#include "site_names.hpp"
#include "store/contents.hpp"
#include "store/deployment.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {
namespace {

constexpr int64_t upload_ttl_ms = 30 * 60 * 1000;
/// A request body of 50,000 files with long paths; above it, 413.
constexpr std::size_t max_request_bytes = 32 * 1024 * 1024;

std::string infer_environment(const DeploymentInput& input, const ProjectSettings& settings,
                              const Project& project) {
    if (input.environment) {
        return *input.environment;
    }
    const std::string glob = settings.production_branch_glob.value_or(project.default_base_branch);
    return branch_matches_glob(glob, input.branch) ? "production" : "preview";
}

Json upload_targets(BlobStore& blobs, const std::vector<DeploymentFile>& files,
                    const std::set<std::string>& registered) {
    Json targets = Json::array();
    std::set<std::string_view> listed;
    for (const auto& file : files) {
        if (registered.contains(file.hash) || !listed.insert(file.hash).second) {
            continue;
        }
        targets.push_back(
            {{"path", file.path},
             {"hash", file.hash},
             {"uploadUrl", blobs.signed_put_url(file.hash, file.content_type, upload_ttl_ms)}});
    }
    return targets;
}

/// The sum of the declared sizes, saturated (a client may declare any size).
int64_t declared_bytes(const std::vector<DeploymentFile>& files) {
    int64_t total = 0;
    for (const auto& file : files) {
        if (file.size > INT64_MAX - total) {
            return INT64_MAX;
        }
        total += file.size;
    }
    return total;
}

}  // namespace

void add_create_deployment(PluginContext& context) {
    Host& host = context.host;
    RouteOptions options;
    options.max_json_bytes = max_request_bytes;
    host.routes().add_validated(
        Method::post, "/deployments", AuthRequirement::project_token, RouteAccess::token_project(),
        parse_deployment_input,
        [&context, &host](Request& request, DeploymentInput& input) {
            const auto& principal = request.principal();
            // A CI run's token deploys the run's own commit and branch (a pull request run's
            // merge commit is not one the provider vouches for).
            if (principal.bound_commit && *principal.bound_commit != input.commit) {
                throw HttpError::unauthorized(
                    "Token is bound to a different commit than the one provided.");
            }
            if (!principal.allows_branch(input.branch)) {
                throw HttpError::unauthorized(
                    "Token is bound to a different branch than the one provided.");
            }
            check_declared(static_cast<int64_t>(input.files.size()), declared_bytes(input.files),
                           context.quota);
            const Project* project = &request.access().require_project();
            std::vector<std::string> hashes;
            hashes.reserve(input.files.size());
            for (const auto& file : input.files) {
                hashes.push_back(file.hash);
            }
            std::sort(hashes.begin(), hashes.end());
            hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());

            Deployment deployment;
            std::set<std::string> registered;
            host.db().transaction([&](soci::session& session) {
                const ProjectSettings settings = load_settings(session, project->id);
                if (!settings.enabled) {
                    throw HttpError::forbidden("Deployments are disabled for this project.");
                }
                deployment = Deployment{};
                deployment.project_id = project->id;
                deployment.environment = infer_environment(input, settings, *project);
                if (principal.untrusted_head && deployment.environment == "production") {
                    throw HttpError::forbidden(
                        "A CI run of a fork cannot deploy to production. Deploy from the "
                        "repository itself, or with a project token");
                }
                deployment.branch = input.branch;
                deployment.commit = input.commit;
                deployment.pr_number = input.pr_number;
                deployment.spa = input.spa.value_or(false);
                deployment.created_at = now_ms();
                // Refused before any upload, and again at finalization (the names may be taken
                // meanwhile).
                refuse_alias_conflicts(
                    session, *project,
                    planned_aliases(*project, deployment.branch, deployment.environment));
                do {
                    deployment.slug = new_deployment_slug(project->name, project->account_slug);
                } while (site_name_taken(session, deployment.slug));
                insert_deployment(session, deployment, input.files);
                registered = registered_hashes(session, hashes);
            });
            host.log().info("deployment.created",
                            {{"id", std::to_string(deployment.id)},
                             {"project", std::to_string(project->id)},
                             {"files", std::to_string(input.files.size())},
                             {"uploads", std::to_string(hashes.size() - registered.size())}});
            return Response::json(
                {{"deploymentId", std::to_string(deployment.id)},
                 {"uploadFiles", upload_targets(host.blobs(), input.files, registered)}},
                201);
        },
        options);
}

}  // namespace loupe::deployments
