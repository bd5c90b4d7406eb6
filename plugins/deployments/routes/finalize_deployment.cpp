// POST /deployments/{deploymentId}/finalize: checks that every file's content is stored,
// registers the contents for deduplication, marks the deployment ready and points its branch
// alias (and, for production, the project's production alias) at it.
#include <soci/soci.h>

#include <map>

#include "deployment_json.hpp"
#include "deployment_quota.hpp"
#include "routes/deployment_aliases.hpp"
#include "routes/deployment_lookup.hpp"
#include "routes/routes.hpp"
#include "store/contents.hpp"

namespace loupe::deployments {
namespace {

/// Details listed when files are missing; the message gives the full count.
constexpr std::size_t max_missing_details = 100;

void check_pending(const Deployment& deployment) {
    if (deployment.status != "pending") {
        throw HttpError::bad_request("Deployment is not in pending status");
    }
}

/// The sizes of the contents not registered yet, as the blob store reports them; throws 400
/// naming every path whose content was never uploaded.
std::vector<std::pair<std::string, int64_t>> stored_new_contents(
    BlobStore& blobs, const std::vector<DeploymentFile>& unregistered) {
    std::map<std::string, std::optional<int64_t>> sizes;
    for (const auto& file : unregistered) {
        if (!sizes.contains(file.hash)) {
            const auto info = blobs.stat(file.hash);
            sizes[file.hash] =
                info ? std::optional(static_cast<int64_t>(info->size)) : std::nullopt;
        }
    }
    std::vector<std::string> missing;
    for (const auto& file : unregistered) {
        if (!sizes[file.hash]) {
            missing.push_back(file.path);
        }
    }
    if (!missing.empty()) {
        std::sort(missing.begin(), missing.end());
        std::vector<std::string> details;
        for (std::size_t i = 0; i < missing.size() && i < max_missing_details; ++i) {
            details.push_back(missing[i] + " was not uploaded");
        }
        throw HttpError(400,
                        std::to_string(missing.size()) + " file" +
                            (missing.size() == 1 ? " was" : "s were") +
                            " not uploaded; upload every file listed in uploadFiles, then "
                            "finalize again",
                        details);
    }
    std::vector<std::pair<std::string, int64_t>> stored;
    for (const auto& [hash, size] : sizes) {
        stored.emplace_back(hash, *size);
    }
    return stored;
}

}  // namespace

void add_finalize_deployment(PluginContext& context) {
    Host& host = context.host;
    host.routes().add(
        Method::post, "/deployments/{deploymentId}/finalize", AuthRequirement::project_token,
        // The deployment named must belong to the token's project (visible_deployment).
        RouteAccess::token_project(), [&context, &host](Request& request) {
            const auto& principal = request.principal();
            auto& database = host.db();
            const auto dialect = database.dialect();
            std::vector<DeploymentFile> unregistered;
            Deployment deployment;
            {
                auto session = database.session();
                deployment =
                    visible_deployment(*session, dialect, request.param("deploymentId"), principal);
                if (principal.bound_commit && *principal.bound_commit != deployment.commit) {
                    throw HttpError::unauthorized(
                        "Token is bound to a different commit than the one provided.");
                }
                if (!principal.allows_branch(deployment.branch)) {
                    throw HttpError::unauthorized(
                        "Token is bound to a different branch than the one provided.");
                }
                check_pending(deployment);
                unregistered = unregistered_files(*session, deployment.id);
            }
            // Blob look-ups (HTTP requests on an object store) stay out of the transaction.
            const auto stored = stored_new_contents(host.blobs(), unregistered);

            const auto project = host.identity().find_project(deployment.project_id);
            if (!project) {
                throw HttpError::unauthorized();
            }
            const Deployment ready = database.transaction([&](soci::session& session) {
                Deployment locked = visible_deployment(
                    session, dialect, std::to_string(deployment.id), principal, true);
                check_pending(locked);
                const auto aliases = planned_aliases(*project, locked.branch, locked.environment);
                refuse_alias_conflicts(session, *project, aliases);
                register_contents(session, stored);
                // The sizes the store reported, never the ones the client declared.
                check_stored_bytes(stored_bytes(session, locked.id), context.quota);
                locked.finalized_at = now_ms();
                mark_ready(session, locked.id, *locked.finalized_at);
                locked.status = "ready";
                point_aliases(session, *project, aliases, locked.id);
                host.jobs().enqueue(session, compress_job_kind, {{"deploymentId", locked.id}});
                return locked;
            });
            host.log().info("deployment.ready", {{"id", std::to_string(ready.id)},
                                                 {"new_contents", std::to_string(stored.size())}});
            return Response::json(deployment_json(ready, deployment_url(context, ready)));
        });
}

void add_get_deployment(PluginContext& context) {
    Host& host = context.host;
    host.routes().add(
        Method::get, "/deployments/{deploymentId}", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::view), [&context, &host](Request& request) {
            Deployment deployment;
            {
                auto session = host.db().session();
                deployment = visible_deployment(*session, host.db().dialect(),
                                                request.param("deploymentId"), request.principal());
            }
            return Response::json(deployment_json(deployment, deployment_url(context, deployment)));
        });
}

}  // namespace loupe::deployments
