// The web plugin: the review page. It serves the built front end, signs browsers in (sessions
// the core accepts as a user principal on API calls), and adds what a page needs on top of the
// API: thumbnails and a build's live state.
#include "loupe/plugin.hpp"

#include <set>

#include "login_link_command.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "migrations.hpp"
#include "routes/routes.hpp"
#include "session/browser_sessions.hpp"
#include "settings.hpp"
#include "store/thumbnails.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    using namespace loupe::web;
    add_migrations(host.migrations());
    const WebSettings settings = read_settings(host);

    // Shared by the routes, the resolver, the commands and the hooks that use them.
    auto sessions = std::make_shared<SessionManager>(host.db(), host.identity(), settings,
                                                     [&host] { return host.public_url(); });
    auto thumbnailer = std::make_shared<Thumbnailer>(
        host.db(), host.blobs(), host.services().require<loupe::builds::ScreenshotThumbnails>(),
        loupe::builds::ThumbnailSize{settings.thumbnail_width, settings.thumbnail_max_height},
        host.services().find<loupe::builds::ImageMemory>(),
        host.services().find<loupe::metrics::Metrics>());

    // Plugins that sign people in another way open their sessions through this service.
    host.services().provide<loupe::web::BrowserSessions>(host.make<BrowserSessionsImpl>(sessions));

    host.token_resolvers().add_session(
        [sessions](const loupe::Request& request) { return sessions->resolve(request); });
    add_session_routes(host, sessions);
    add_own_sessions_routes(host, sessions);
    add_permissions_routes(host);
    add_page_routes(host, settings);
    add_thumbnail_route(host, thumbnailer);
    add_live_route(host);
    add_user_commands(host, sessions);
    // A thumbnail is in use while the screenshot it shows is stored: once the sweep removed
    // that, the thumbnail goes at the next sweep (a missing thumbnail is made again on demand).
    auto& blobs = host.blobs();
    host.blob_references().add(
        [&blobs](soci::session& session, const std::vector<std::string>& keys) {
            std::set<std::string> in_use;
            const auto sources = thumbnails::sources_of(session, keys);
            std::vector<std::string> source_keys;
            for (const auto& [thumbnail, source] : sources) {
                source_keys.push_back(source);
            }
            const auto gone_list = blobs.missing(source_keys);
            const std::set<std::string> gone(gone_list.begin(), gone_list.end());
            for (const auto& [thumbnail, source] : sources) {
                if (!gone.contains(source)) {
                    in_use.insert(thumbnail);
                }
            }
            return in_use;
        });

    host.on_ready([sessions] { sessions->delete_stale(); });
    host.on_bootstrap([sessions](const loupe::User& admin) {
        const auto url = sessions->login_link_url(sessions->issue_login_link(admin.id));
        const auto minutes = sessions->settings().login_link_ms / 60'000;
        return std::vector<std::string>{
            "Review page: sign in as " + admin.slug + " with this link (one use, valid " +
                std::to_string(minutes) + " minutes):",
            "  " + url,
            "Later: loupe admin user login-link --user " + admin.slug,
        };
    });
}

}  // namespace

LOUPE_PLUGIN("web", LOUPE_VERSION, LOUPE_REQUIRES("auth", "builds"), install)
