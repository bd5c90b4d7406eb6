#include "tokenless/gitlab_tokenless.hpp"

#include "loupe/http/http_error.hpp"
#include "store/links.hpp"
#include "tokenless/tokenless_messages.hpp"
#include "tokenless/tokenless_token.hpp"

namespace loupe::git {

namespace messages = tokenless_messages;

GitLabTokenless::GitLabTokenless(Database& database, Identity& identity, GitLabApiClient& gitlab,
                                 Logger& log, int64_t timeout_ms)
    : database_(database),
      identity_(identity),
      gitlab_(gitlab),
      log_(log),
      timeout_ms_(timeout_ms) {}

void GitLabTokenless::unavailable(const RepositoryLink& link, const CallResult& result) {
    log_.warn("git.gitlab_unavailable", {{"repository", link.repository},
                                         {"status", std::to_string(result.http_status)},
                                         {"error", result.message}});
    throw HttpError(503, messages::gitlab_unavailable);
}

std::optional<GitLabTokenlessContext> GitLabTokenless::resolve(const std::string& token) {
    const auto decoded = decode_gitlab_token(token);
    if (!decoded) {
        throw HttpError::unauthorized(messages::invalid_gitlab_token);
    }
    std::vector<RepositoryLink> links;
    {
        auto session = database_.session();
        links = links_to(*session, Provider::gitlab, decoded->gitlab_project);
    }
    auto linked =
        choose_linked_project(identity_, links, decoded->project,
                              {messages::gitlab_slug_not_found(decoded->project.value_or("")),
                               messages::gitlab_multiple_projects});
    if (!linked) {
        return std::nullopt;
    }
    GitLabTokenlessContext context{std::move(*linked), {}};
    const auto deadline = deadline_in(timeout_ms_);
    const auto& link = context.linked.link;
    const auto job = gitlab_.job(decoded->job_token, context.job, deadline);
    if (job.outcome == Outcome::rejected || job.outcome == Outcome::not_found) {
        throw HttpError::unauthorized(messages::gitlab_job_rejected);
    }
    if (!job.ok()) {
        unavailable(link, job);
    }
    int64_t expected_project = 0;
    const auto lookup = gitlab_.project_id(link, expected_project, deadline);
    if (!lookup.ok()) {
        unavailable(link, lookup);
    }
    if (context.job.project_id != expected_project) {
        throw HttpError::unauthorized(messages::gitlab_job_other_project);
    }
    if (context.job.status != "running") {
        throw HttpError::unauthorized(messages::gitlab_job_not_running);
    }
    return context;
}

}  // namespace loupe::git
