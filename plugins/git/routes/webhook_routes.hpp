#pragma once

#include "loupe/builds/pull_request_merges.hpp"
#include "loupe/host.hpp"
#include "settings/git_settings.hpp"

namespace loupe::git {

/// POST /_loupe/webhooks/github and POST /_loupe/webhooks/gitlab: a provider's webhook
/// deliveries, authenticated by the shared secret (GitHub's HMAC signature, GitLab's token). A
/// merged pull request of a linked repository is told to the builds plugin for every project
/// linked to it; other events are acknowledged and ignored.
void add_webhook_routes(Host& host, const GitSettings& settings, builds::PullRequestMerges& merges);

}  // namespace loupe::git
