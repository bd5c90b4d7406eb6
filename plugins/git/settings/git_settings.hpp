#pragma once
// The git plugin's configuration: the providers' keys (`github.*`, `gitlab.*`, named after the
// provider so one set of keys serves every plugin that talks to it) and the plugin's own
// (`plugins.git.*`). Read once at install; a bad value fails the start with its key named.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/config/config_view.hpp"

namespace loupe::git {

struct GitSettings {
    // Outgoing HTTP(S)
    int64_t timeout_ms = 10'000;  ///< budget of one provider call (and of one verification)
    std::string ca_file;          ///< extra trusted CAs (file or folder), on top of the system's
    int64_t max_response_bytes = 4 * 1024 * 1024;

    // GitHub App
    std::string github_api_url = "https://api.github.com";
    std::string github_app_id;
    std::string github_private_key_pem;

    // GitLab
    std::string gitlab_api_url = "https://gitlab.com/api/v4";
    std::string gitlab_token;
    std::string gitlab_token_file;

    // Webhooks (pull request merges): GitHub signs deliveries with this secret
    // (X-Hub-Signature-256), GitLab sends it as X-Gitlab-Token. Empty: the webhook is refused.
    std::string github_webhook_secret;
    std::string gitlab_webhook_secret;

    // Tokenless authentication
    int64_t tokenless_cache_ms = 600'000;  ///< how long a verified tokenless bearer is trusted
    int64_t short_lived_token_ms = 600'000;

    // CI OpenID Connect ID tokens (POST /auth/github-actions/oidc/exchange and
    // /auth/gitlab-ci/oidc/exchange): who issues them, and the audiences accepted besides the
    // origin of http.public_url (the one the Argos CLI asks for).
    std::string github_oidc_issuer = "https://token.actions.githubusercontent.com";
    std::string gitlab_oidc_issuer;  ///< default: gitlab.api_url without its /api/v4
    std::vector<std::string> oidc_audiences;

    // Commit statuses
    int status_push_attempts = 6;
    int64_t build_expiry_ms = 2 * 60 * 60 * 1000;  ///< a build pending this long reads expired
};

/// Reads and checks every key; throws std::runtime_error naming the key at fault.
GitSettings read_git_settings(const ConfigView& plugin, const ConfigView& global);

/// The origin of an http(s) URL: scheme, host and port ("https://a.example:8443/v2/" →
/// "https://a.example:8443").
std::string url_origin(const std::string& url);

/// `url` without trailing slashes.
std::string without_trailing_slash(std::string url);

}  // namespace loupe::git
