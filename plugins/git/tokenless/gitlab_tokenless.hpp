#pragma once
// Verifies a `tokenless-gitlab-` token: decode it, find the project linked to its GitLab
// project, then ask GitLab which job the job token belongs to (GET /job): it must be a job of
// the linked GitLab project, and running. Refusals, in order: undecodable → 401; no linked
// project → nullopt; named project not linked → 400; several linked, none named → 400; job token
// refused → 401; GitLab failing or slow → 503; job of another project → 401; job not running →
// 401. The whole verification finishes within `timeout_ms`.

#include <optional>
#include <string>

#include "gitlab/gitlab_api_client.hpp"
#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"
#include "tokenless/linked_project.hpp"

namespace loupe::git {

struct GitLabTokenlessContext {
    LinkedProject linked;
    GitLabJob job;
};

class GitLabTokenless {
public:
    GitLabTokenless(Database& database, Identity& identity, GitLabApiClient& gitlab, Logger& log,
                    int64_t timeout_ms);
    std::optional<GitLabTokenlessContext> resolve(const std::string& token);

private:
    [[noreturn]] void unavailable(const RepositoryLink& link, const CallResult& result);

    Database& database_;
    Identity& identity_;
    GitLabApiClient& gitlab_;
    Logger& log_;
    int64_t timeout_ms_;
};

}  // namespace loupe::git
