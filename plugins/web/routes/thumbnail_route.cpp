// Small images for the diff list: a build of 2,000 diffs shows a few dozen rows at a time, each
// with a thumbnail of a few kB instead of a full screenshot of a few hundred.
#include <charconv>

#include "loupe/http/http_error.hpp"
#include "routes/build_lookup.hpp"
#include "routes/routes.hpp"

namespace loupe::web {
namespace {

int64_t parse_id(const std::string& text) {
    int64_t id = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (error != std::errc() || end != text.data() + text.size() || id < 1) {
        throw HttpError::not_found("Screenshot diff not found");
    }
    return id;
}

}  // namespace

void add_thumbnail_route(Host& host, std::shared_ptr<Thumbnailer> thumbnailer) {
    auto* service = host.services().find<builds::BuildsService>();
    host.routes().add(
        Method::get, "/_loupe/thumbnails/{owner}/{project}/{buildNumber}/{diffId}/{side}",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        [&host, thumbnailer, service](Request& request) {
            const std::string& side = request.param("side");
            if (side != "base" && side != "head") {
                throw HttpError::not_found("Use base or head");
            }
            const int64_t diff_id = parse_id(request.param("diffId"));
            const BuildRef ref = find_visible_build(host, service, request);
            std::vector<builds::DiffSummary> diffs;
            {
                auto session = host.db().session();
                diffs = service->find_diffs(*session, ref.build.id, {diff_id});
            }
            if (diffs.empty()) {
                throw HttpError::not_found("Screenshot diff not found");
            }
            const auto& key = side == "head" ? diffs.front().head_key : diffs.front().base_key;
            if (!key) {
                throw HttpError::not_found("This diff has no " + side + " screenshot");
            }
            const std::string thumbnail = thumbnailer->thumbnail_key(*key);
            // A diff's screenshots never change, so neither does its thumbnail.
            const char* cache = "private, max-age=31536000, immutable";
            if (auto path = thumbnailer->blobs().local_path(thumbnail)) {
                return Response::file(*path, "image/jpeg").with_header("Cache-Control", cache);
            }
            auto bytes = thumbnailer->blobs().read(thumbnail);
            if (!bytes) {
                throw HttpError::not_found("Thumbnail not found");
            }
            return Response::text(std::move(*bytes), "image/jpeg")
                .with_header("Cache-Control", cache);
        });
}

}  // namespace loupe::web
