#include "tokenless/github_tokenless.hpp"

#include "loupe/http/http_error.hpp"
#include "store/links.hpp"
#include "tokenless/tokenless_messages.hpp"
#include "tokenless/tokenless_token.hpp"

namespace loupe::git {

namespace messages = tokenless_messages;

GitHubTokenless::GitHubTokenless(Database& database, Identity& identity, GitHubAppClient& github,
                                 Logger& log, int64_t timeout_ms)
    : database_(database),
      identity_(identity),
      github_(github),
      log_(log),
      timeout_ms_(timeout_ms) {}

std::optional<GitHubTokenlessContext> GitHubTokenless::resolve(const std::string& token) {
    const auto decoded = decode_github_token(token);
    if (!decoded) {
        throw HttpError::unauthorized(messages::invalid_token(token));
    }
    std::vector<RepositoryLink> links;
    {
        auto session = database_.session();
        links = links_to(*session, Provider::github, decoded->owner + "/" + decoded->repository);
    }
    auto linked = choose_linked_project(
        identity_, links, decoded->project,
        {messages::github_slug_not_found(decoded->project.value_or(""), token),
         messages::github_multiple_projects(token)});
    if (!linked) {
        return std::nullopt;
    }
    if (!linked->link.installation_id) {
        throw HttpError::unauthorized(messages::app_not_installed);
    }
    GitHubTokenlessContext context{std::move(*linked), {}};
    const auto result = github_.workflow_run(*context.linked.link.installation_id, decoded->owner,
                                             decoded->repository, decoded->run_id, context.run,
                                             deadline_in(timeout_ms_));
    switch (result.outcome) {
        case Outcome::ok:
            break;
        case Outcome::not_installed:
            throw HttpError::unauthorized(messages::app_not_installed);
        case Outcome::not_found:
            throw HttpError::not_found(messages::run_not_found(token));
        case Outcome::rejected:
        case Outcome::unavailable:
        case Outcome::not_configured:
            log_.warn("git.github_unavailable", {{"repository", context.linked.link.repository},
                                                 {"status", std::to_string(result.http_status)},
                                                 {"error", result.message}});
            throw HttpError(503, messages::github_unavailable);
    }
    if (context.run.status != "in_progress" && context.run.status != "queued") {
        throw HttpError::unauthorized(messages::run_not_in_progress(token));
    }
    return context;
}

}  // namespace loupe::git
