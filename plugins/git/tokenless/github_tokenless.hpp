#pragma once
// Verifies a `tokenless-github-` token: decode it, find the project linked to its repository,
// then ask GitHub (as the App's installation) for the workflow run, which must be queued or in
// progress. The steps and their refusals come in this order:
//   undecodable → 401; no linked project → nullopt (the caller words it); named project not
//   linked → 400; several linked, none named → 400; App not installed → 401; GitHub failing or
//   slow → 503; run not found → 404; run not queued or in progress → 401.
// The whole verification finishes within `timeout_ms`.

#include <optional>
#include <string>

#include "github/github_app_client.hpp"
#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"
#include "tokenless/linked_project.hpp"

namespace loupe::git {

struct GitHubTokenlessContext {
    LinkedProject linked;
    WorkflowRun run;
};

class GitHubTokenless {
public:
    GitHubTokenless(Database& database, Identity& identity, GitHubAppClient& github, Logger& log,
                    int64_t timeout_ms);
    std::optional<GitHubTokenlessContext> resolve(const std::string& token);

private:
    Database& database_;
    Identity& identity_;
    GitHubAppClient& github_;
    Logger& log_;
    int64_t timeout_ms_;
};

}  // namespace loupe::git
