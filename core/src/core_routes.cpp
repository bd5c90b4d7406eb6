#include "core_routes.hpp"

#include "db/database_impl.hpp"

namespace loupe {

void add_core_routes(Routes& routes, Database& database, LocalBlobStore& blobs, UploadLimits limits,
                     Logger& log) {
    routes.add(Method::get, "/healthz", AuthRequirement::none, [](Request&) {
        return Response::json({{"status", "ok"}});
    });
    routes.add(Method::get, "/readyz", AuthRequirement::none, [&database](Request&) {
        if (database_ready(database)) {
            return Response::json({{"status", "ready"}, {"database", "ok"}});
        }
        return Response::json({{"status", "unavailable"}, {"database", "unreachable"}}, 503);
    });
    add_blob_routes(routes, blobs, limits, log);
}

}  // namespace loupe
