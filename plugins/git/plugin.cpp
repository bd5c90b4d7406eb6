// The git plugin: GitHub and GitLab clients offered to every plugin (git.GitProviders), the
// repository links and keyless settings of projects, keyless authentication for CI jobs
// without a secret (tokenless bearer resolvers and exchange routes, OpenID Connect ID token
// exchanges), and what the linked provider shows of builds as they change: commit statuses, the
// pull request comment and the summary check.
#include "loupe/plugin.hpp"

#include <memory>

#include "commands/admin_commands.hpp"
#include "git_providers_impl.hpp"
#include "loupe/builds/build_deletion.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/git/events.hpp"
#include "loupe/git/pull_request_comments.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "pull_request/pull_request_poster.hpp"
#include "routes/exchange_routes.hpp"
#include "routes/repository_link_routes.hpp"
#include "routes/webhook_routes.hpp"
#include "settings/git_settings.hpp"
#include "settings/project_settings_fields.hpp"
#include "status/commit_status_pusher.hpp"
#include "store/commit_statuses.hpp"
#include "store/git_migrations.hpp"
#include "store/pull_requests.hpp"
#include "tokenless/tokenless_auth.hpp"
#include "tokenless/tokenless_token.hpp"

namespace {

using namespace loupe;
using namespace loupe::git;

// What install() makes, kept by the Host as long as the installation.
struct GitPlugin {
    GitSettings settings;
    std::unique_ptr<GitProvidersImpl> providers;
    std::unique_ptr<TokenlessAuth> tokenless;
    std::unique_ptr<CiOidcExchange> oidc;
    std::unique_ptr<CommitStatusPusher> pusher;
    std::unique_ptr<PullRequestPoster> poster;
};

void install(Host& host) {
    describe_api(host.services(), embedded_api_description());
    auto& plugin = host.make<GitPlugin>();
    plugin.settings = read_git_settings(host.config(), host.global_config());
    plugin.providers = std::make_unique<GitProvidersImpl>(plugin.settings);
    plugin.tokenless = std::make_unique<TokenlessAuth>(
        host.db(), host.identity(), plugin.providers->github_client(),
        plugin.providers->gitlab_client(), host.log(), plugin.settings);

    plugin.oidc = std::make_unique<CiOidcExchange>(
        host.db(), host.identity(), plugin.providers->http_client(), host.log(), plugin.settings,
        [&host] { return host.public_url(); });

    add_git_migrations(host.migrations());
    add_project_settings_fields(host.project_fields());
    host.services().provide<GitProviders>(*plugin.providers);

    auto& tokenless = *plugin.tokenless;
    host.token_resolvers().add(github_token_marker, [&tokenless](const std::string& token) {
        return tokenless.github_bearer(token);
    });
    host.token_resolvers().add(gitlab_token_marker, [&tokenless](const std::string& token) {
        return tokenless.gitlab_bearer(token);
    });
    add_exchange_routes(host, tokenless);
    add_oidc_exchange_routes(host, *plugin.oidc);
    add_repository_link_routes(host, *plugin.providers);
    add_admin_commands(host);
    host.events().publishes<PullRequestOpened>();
    if (auto* merges = host.services().find<builds::PullRequestMerges>()) {
        add_webhook_routes(host, plugin.settings, *merges);
    }

    if (auto* builds = host.services().find<builds::BuildsService>()) {
        plugin.pusher =
            std::make_unique<CommitStatusPusher>(host, *plugin.providers, *builds, plugin.settings);
        plugin.pusher->install();
        plugin.poster =
            std::make_unique<PullRequestPoster>(host, *plugin.providers, *builds, plugin.settings);
        plugin.poster->install();
        host.services().provide<PullRequestComments>(*plugin.poster);
    } else {
        host.log().warn("git.builds_service_missing",
                        {{"effect", "commit statuses and pull request comments are not posted"}});
    }
    if (auto* deletion = host.services().find<builds::BuildDeletion>()) {
        deletion->observe([](soci::session& session, const builds::DeletedBuilds& deleted) {
            return builds::DeletedRows{
                {"commit statuses", delete_statuses_of_builds(session, deleted.build_ids)},
                {"pull request builds", delete_pull_request_builds(session, deleted.build_ids)}};
        });
    }
}

}  // namespace

LOUPE_PLUGIN("git", LOUPE_VERSION, LOUPE_REQUIRES("auth", "builds"), install)
