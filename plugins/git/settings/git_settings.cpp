#include "settings/git_settings.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace loupe::git {
namespace {

int64_t positive(const ConfigView& config, const std::string& prefix, const std::string& key,
                 int64_t fallback) {
    const int64_t value = config.get_int(key, fallback);
    if (value <= 0) {
        throw std::runtime_error(prefix + key + " must be a positive number (got " +
                                 std::to_string(value) + ")");
    }
    return value;
}

std::string read_whole_file(const std::string& key, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error(key + ": cannot read " + path);
    }
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

std::string http_url(const std::string& key, std::string url) {
    url = without_trailing_slash(std::move(url));
    if (!url.starts_with("https://") && !url.starts_with("http://")) {
        throw std::runtime_error(key + " must be an http:// or https:// URL (got \"" + url + "\")");
    }
    return url;
}

/// A secret given inline (`key`) or in a file (`key_file`, its trailing newlines dropped).
std::string secret_setting(const ConfigView& config, const std::string& key) {
    auto secret = config.get_string(key, "");
    const auto file = config.get_string(key + "_file", "");
    if (secret.empty() && !file.empty()) {
        secret = read_whole_file(key + "_file", file);
        while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) {
            secret.pop_back();
        }
    }
    return secret;
}

/// The comma-separated values of a list setting, trimmed, empty ones left out.
std::vector<std::string> comma_list(const std::string& text) {
    std::vector<std::string> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find(',', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        auto value = text.substr(start, end - start);
        const auto first = value.find_first_not_of(" \t");
        const auto last = value.find_last_not_of(" \t");
        if (first != std::string::npos) {
            values.push_back(value.substr(first, last - first + 1));
        }
        start = end + 1;
    }
    return values;
}

/// `value`, or `fallback` when the setting is empty.
std::string or_default(std::string value, std::string fallback) {
    return value.empty() ? std::move(fallback) : std::move(value);
}

/// The GitLab instance an API URL belongs to: "https://gitlab.com/api/v4" → "https://gitlab.com".
std::string gitlab_instance_of(const std::string& api_url) {
    constexpr std::string_view api_path = "/api/v4";
    if (api_url.ends_with(api_path)) {
        return api_url.substr(0, api_url.size() - api_path.size());
    }
    return api_url;
}

}  // namespace

std::string url_origin(const std::string& url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) {
        return url;
    }
    const auto path = url.find_first_of("/?#", scheme_end + 3);
    return path == std::string::npos ? url : url.substr(0, path);
}

std::string without_trailing_slash(std::string url) {
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

GitSettings read_git_settings(const ConfigView& plugin, const ConfigView& global) {
    const std::string own = "plugins.git.";
    GitSettings settings;
    settings.timeout_ms = positive(plugin, own, "timeout_ms", settings.timeout_ms);
    settings.ca_file = plugin.get_string("ca_file", "");
    settings.max_response_bytes =
        positive(plugin, own, "max_response_bytes", settings.max_response_bytes);
    settings.tokenless_cache_ms =
        positive(plugin, own, "tokenless_cache_ms", settings.tokenless_cache_ms);
    settings.short_lived_token_ms =
        positive(plugin, own, "short_lived_token_ms", settings.short_lived_token_ms);
    settings.status_push_attempts = static_cast<int>(
        positive(plugin, own, "status_push_attempts", settings.status_push_attempts));

    settings.github_api_url =
        http_url("github.api_url", global.get_string("github.api_url", settings.github_api_url));
    settings.github_app_id = global.get_string("github.app_id", "");
    settings.github_private_key_pem = global.get_string("github.app_private_key", "");
    const auto key_file = global.get_string("github.app_private_key_file", "");
    if (settings.github_private_key_pem.empty() && !key_file.empty()) {
        settings.github_private_key_pem = read_whole_file("github.app_private_key_file", key_file);
    }

    settings.gitlab_api_url =
        http_url("gitlab.api_url", global.get_string("gitlab.api_url", settings.gitlab_api_url));
    settings.gitlab_token = global.get_string("gitlab.token", "");
    settings.gitlab_token_file = global.get_string("gitlab.token_file", "");

    settings.github_webhook_secret = secret_setting(global, "github.webhook_secret");
    settings.gitlab_webhook_secret = secret_setting(global, "gitlab.webhook_secret");

    settings.github_oidc_issuer =
        http_url("github.actions_oidc_issuer",
                 or_default(global.get_string("github.actions_oidc_issuer", ""),
                            settings.github_oidc_issuer));
    settings.gitlab_oidc_issuer =
        http_url("gitlab.oidc_issuer", or_default(global.get_string("gitlab.oidc_issuer", ""),
                                                  gitlab_instance_of(settings.gitlab_api_url)));
    for (auto& audience : comma_list(plugin.get_string("oidc_audiences", ""))) {
        settings.oidc_audiences.push_back(without_trailing_slash(std::move(audience)));
    }
    return settings;
}

}  // namespace loupe::git
