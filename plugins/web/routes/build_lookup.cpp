#include "routes/build_lookup.hpp"

#include <charconv>

#include "loupe/http/http_error.hpp"

namespace loupe::web {

BuildRef find_visible_build(Host& host, builds::BuildsService* service, const Request& request) {
    const std::string& text = request.param("buildNumber");
    int64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size() || number < 1) {
        throw HttpError::invalid({" is Invalid input: expected number, received NaN"});
    }
    if (service == nullptr) {
        throw HttpError(503, "The builds plugin does not offer its service to the web page");
    }
    const Project& project = request.access().require_project();
    auto session = host.db().session();
    auto build = service->find_build(*session, project.id, number);
    if (!build) {
        if (request.principal().is_project()) {
            throw HttpError::unauthorized();
        }
        throw HttpError::not_found();
    }
    return BuildRef{project, std::move(*build)};
}

}  // namespace loupe::web
