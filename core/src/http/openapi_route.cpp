#include "http/openapi_route.hpp"

#include <memory>
#include <mutex>

#include "http/openapi_document.hpp"

namespace loupe {

void add_openapi_route(Routes& routes, OpenApiSources sources) {
    struct Cache {
        std::once_flag built;
        std::string body;
    };
    auto cache = std::make_shared<Cache>();
    routes.add(Method::get, "/openapi.json", AuthRequirement::none,
               RouteAccess::public_route("the API's description, the same for everyone"),
               [sources = std::move(sources), cache](Request&) {
                   std::call_once(cache->built, [&] {
                       const Json document = openapi_document(
                           sources.registries.routes, sources.described,
                           OpenApiSettings{sources.public_url(), sources.plugins()});
                       cache->body = document.dump();
                   });
                   return Response::text(cache->body, "application/json");
               });
}

}  // namespace loupe
