// The media plugin: Argos's standalone media. A developer (or CI) declares an image or a video,
// uploads it to a signed form, and finalizes it; Loupe checks the bytes, keeps each upload of a
// name as a version, and serves the files and the public share pages from a listener of its
// own, an origin that holds no session of the review page.
#include "loupe/plugin.hpp"

#include <memory>
#include <set>
#include <stdexcept>

#include "loupe/git/events.hpp"
#include "loupe/git/pull_request_comments.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "loupe/http/listeners.hpp"
#include "media_settings.hpp"
#include "pull_request/pull_request_media.hpp"
#include "routes/file_routes.hpp"
#include "routes/media_routes.hpp"
#include "store/media_migrations.hpp"
#include "store/media_store.hpp"

namespace {

using namespace loupe;
using namespace loupe::media;

ListenerSpec media_listener_spec(Host& host) {
    const ConfigView& config = host.config();
    const int64_t api_port = host.global_config().get_int("http.port", 8080);
    ListenerSpec spec;
    spec.name = "media";
    spec.listen_address = config.get_string("listen_address", "");
    spec.port = static_cast<int>(config.get_int("port", api_port == 0 ? 0 : api_port + 2));
    if (spec.port < 0 || spec.port > 65535) {
        throw std::runtime_error("plugins.media.port must be 0 to 65535, got " +
                                 std::to_string(spec.port));
    }
    spec.response_headers = media_listener_headers();
    spec.public_url = config.get_string("public_url", "");
    while (!spec.public_url.empty() && spec.public_url.back() == '/') {
        spec.public_url.pop_back();
    }
    return spec;
}

void install(Host& host) {
    describe_api(host.services(), embedded_api_description());
    const auto& settings = host.make<MediaSettings>(read_media_settings(host.config()));
    add_media_migrations(host.migrations());
    Listener& listener = host.listeners().add(media_listener_spec(host));
    const std::function<MediaUrls()> urls = [&listener, &host] {
        return MediaUrls{listener.public_url(), host.public_url()};
    };
    // Comments pinned on media: the reviews plugin's library, when it is enabled (before media).
    auto* comments = host.services().find<reviews::MediaComments>();
    if (comments != nullptr) {
        comments->add_media_place(
            host, reviews::MediaCommentPlace{media_project_finder(host), [&host](Request& request) {
                                                 return media_target(host, request);
                                             }});
    }
    // The pull request's comment listing its media: the git plugin's, when it is enabled (before
    // media).
    auto* pull_request_comments = host.services().find<git::PullRequestComments>();
    if (pull_request_comments == nullptr) {
        host.log().info("media.pull_request_comments_missing",
                        {{"effect", "pull requests get no comment listing their media"}});
    }
    auto& pull_requests = host.make<PullRequestMedia>(host, pull_request_comments, urls);
    add_media_routes(host, settings, urls, comments, pull_requests);
    add_file_routes(host, listener, urls);
    // A pull request opened for a branch takes the media staged on it (the git plugin's event).
    host.events()
        .subscriber("media.adopt_staged")
        .on<git::PullRequestOpened>(
            [&host, &pull_requests](const git::PullRequestOpened& opened, const EventDelivery&) {
                host.db().transaction([&](soci::session& session) {
                    if (adopt_staged_media(session, opened.project_id, opened.branch,
                                           opened.pr_number) > 0) {
                        pull_requests.refresh(session, opened.project_id, opened.pr_number);
                    }
                });
            });
    // The blobs of every version stay while their media does.
    host.blob_references().add(referenced_blob_keys);
}

}  // namespace

LOUPE_PLUGIN("media", LOUPE_VERSION, LOUPE_REQUIRES("auth"), install)
