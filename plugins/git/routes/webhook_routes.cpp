#include "routes/webhook_routes.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/git/events.hpp"
#include "loupe/http/http_error.hpp"
#include "store/links.hpp"
#include "webhooks/pull_request_webhook.hpp"

namespace loupe::git {
namespace {

/// Refuses a delivery when no secret is configured: an unauthenticated webhook would let anyone
/// mark a pull request merged, and so approve its builds as baselines.
void require_secret(const std::string& secret, const char* key) {
    if (secret.empty()) {
        throw HttpError(403, "Webhook not configured",
                        {std::string(key) + " is not set on this server"});
    }
}

Json payload_of(Request& request) {
    Json payload = request.json();
    if (!payload.is_object()) {
        throw HttpError(400, "Invalid JSON body", {"expected a JSON object"});
    }
    return payload;
}

/// Publishes pull_request.opened for every project linked to its repository.
Response record_opened(Host& host, const OpenedPullRequest& opened) {
    int64_t projects = 0;
    host.db().transaction([&](soci::session& session) {
        projects = 0;
        for (const auto& link : links_to(session, opened.provider, opened.repository)) {
            host.events().publish(session,
                                  PullRequestOpened{link.project_id, opened.number, opened.branch});
            ++projects;
        }
    });
    return Response::json({{"ignored", false}, {"projects", projects}});
}

/// Records the merge for every project linked to its repository (or, for an opened pull
/// request, tells them); answers what was done.
Response record(Host& host, builds::PullRequestMerges& merges,
                const std::optional<MergedPullRequest>& merge,
                const std::optional<OpenedPullRequest>& opened) {
    if (opened) {
        return record_opened(host, *opened);
    }
    if (!merge) {
        return Response::json({{"ignored", true}});
    }
    int64_t projects = 0;
    host.db().transaction([&](soci::session& session) {
        projects = 0;
        for (const auto& link : links_to(session, merge->provider, merge->repository)) {
            merges.record_merged(session, link.project_id, merge->number, merge->merged_at);
            ++projects;
        }
    });
    host.log().info("git.pull_request_merged", {{"provider", provider_name(merge->provider)},
                                                {"repository", merge->repository},
                                                {"number", std::to_string(merge->number)},
                                                {"projects", std::to_string(projects)}});
    return Response::json({{"ignored", false}, {"projects", projects}});
}

}  // namespace

void add_webhook_routes(Host& host, const GitSettings& settings,
                        builds::PullRequestMerges& merges) {
    const auto access = [](const char* how) {
        return RouteAccess::public_route(std::string("a provider's webhook delivery, ") + how +
                                         "; it only records that a pull request of a linked "
                                         "repository was opened or merged");
    };
    host.routes().add(
        Method::post, "/_loupe/webhooks/github", AuthRequirement::none,
        access("signed with the shared secret (X-Hub-Signature-256)"),
        [&host, &settings, &merges](Request& request) {
            require_secret(settings.github_webhook_secret, "github.webhook_secret");
            const auto signature = request.header("X-Hub-Signature-256").value_or("");
            if (!github_signature_fits(settings.github_webhook_secret, request.body(), signature)) {
                throw HttpError(401, "Invalid signature",
                                {"X-Hub-Signature-256 does not match the body"});
            }
            const auto event = request.header("X-GitHub-Event").value_or("");
            const Json payload = payload_of(request);
            return record(host, merges, github_merge_of(event, payload, now_ms()),
                          github_opened_of(event, payload));
        });
    host.routes().add(
        Method::post, "/_loupe/webhooks/gitlab", AuthRequirement::none,
        access("carrying the shared secret (X-Gitlab-Token)"),
        [&host, &settings, &merges](Request& request) {
            require_secret(settings.gitlab_webhook_secret, "gitlab.webhook_secret");
            const auto token = request.header("X-Gitlab-Token").value_or("");
            if (!crypto::equal_in_constant_time(settings.gitlab_webhook_secret, token)) {
                throw HttpError(401, "Invalid token",
                                {"X-Gitlab-Token is not the webhook's secret"});
            }
            const Json payload = payload_of(request);
            return record(host, merges, gitlab_merge_of(payload, now_ms()),
                          gitlab_opened_of(payload));
        });
}

}  // namespace loupe::git
