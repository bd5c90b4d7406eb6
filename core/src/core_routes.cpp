#include "core_routes.hpp"

#include "db/database_impl.hpp"

namespace loupe {

void add_core_routes(Routes& routes, const CoreRouteTargets& targets, UploadLimits limits,
                     Logger& log) {
    routes.add(Method::get, "/healthz", AuthRequirement::none,
               RouteAccess::public_route("liveness probe: says only that the process answers"),
               [](Request&) {
                   return Response::json({{"status", "ok"}});
               });
    routes.add(Method::get, "/readyz", AuthRequirement::none,
               RouteAccess::public_route("readiness probe: says only whether the database and "
                                         "blob store answer"),
               [&database = targets.database, blobs_ready = targets.blobs_ready](Request&) {
                   const bool database_ok = database_ready(database);
                   const bool blobs_ok = !blobs_ready || blobs_ready();
                   Json body{{"status", database_ok && blobs_ok ? "ready" : "unavailable"},
                             {"database", database_ok ? "ok" : "unreachable"}};
                   if (blobs_ready) {
                       body["blobs"] = blobs_ok ? "ok" : "unreachable";
                   }
                   return Response::json(body, database_ok && blobs_ok ? 200 : 503);
               });
    if (targets.local_blobs != nullptr) {
        add_blob_routes(routes, *targets.local_blobs, limits, log);
    } else {
        add_blob_download_route(routes, targets.signer, targets.blobs);
    }
}

}  // namespace loupe
