#include "automation_settings.hpp"

#include <stdexcept>
#include <vector>

#include "loupe/text/strings.hpp"

namespace loupe::automation {
namespace {

std::map<std::string, std::string> named_webhooks(const ConfigView& config,
                                                  const std::string& prefix) {
    std::map<std::string, std::string> hooks;
    for (const std::string& key : config.keys_with_prefix(prefix)) {
        const std::string id = key.substr(prefix.size());
        const std::string url(trim(config.get_string(key, "")));
        if (id.empty() || !is_http_url(url)) {
            throw std::runtime_error("plugins.automation." + key +
                                     ": expected an http:// or https:// webhook URL");
        }
        hooks[id] = url;
    }
    return hooks;
}

}  // namespace

bool is_http_url(const std::string& url) {
    for (const char* scheme : {"http://", "https://"}) {
        const std::string prefix(scheme);
        if (url.size() > prefix.size() && url.compare(0, prefix.size(), prefix) == 0) {
            const char first = url[prefix.size()];
            return first != '/' && first != '?' && first != '#' &&
                   url.find_first_of(" \t\r\n") == std::string::npos;
        }
    }
    return false;
}

std::optional<std::string> refused_webhook_address(const AddressPolicy& policy,
                                                   const std::string& url) {
    // scheme://[userinfo@]host[:port][/path]: the host, without an IPv6 literal's brackets.
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) {
        return std::nullopt;
    }
    std::string authority = url.substr(scheme_end + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    authority =
        authority.substr(authority.rfind('@') == std::string::npos ? 0 : authority.rfind('@') + 1);
    std::string host;
    if (authority.starts_with('[')) {
        host = authority.substr(1, authority.find(']') - 1);
    } else {
        host = authority.substr(0, authority.find(':'));
    }
    if (!parse_ip_address(host)) {
        return std::nullopt;
    }
    return policy.refusal(host);
}

AutomationSettings read_automation_settings(const ConfigView& config) {
    AutomationSettings settings;
    settings.slack_api_url =
        std::string(trim(config.get_string("slack_api_url", settings.slack_api_url)));
    while (!settings.slack_api_url.empty() && settings.slack_api_url.back() == '/') {
        settings.slack_api_url.pop_back();
    }
    if (!is_http_url(settings.slack_api_url)) {
        throw std::runtime_error("plugins.automation.slack_api_url: expected an http(s) URL");
    }
    settings.slack_bot_token = std::string(trim(config.get_string("slack_bot_token", "")));
    settings.secrets_key_file = std::string(trim(config.get_string("secrets_key_file", "")));
    settings.teams_webhooks = named_webhooks(config, "teams_webhook.");
    settings.discord_webhooks = named_webhooks(config, "discord_webhook.");
    std::vector<std::string> networks;
    const std::string allowed = config.get_string("webhook_allowed_networks", "");
    for (const auto& item : split(allowed, ',')) {
        if (!trim(item).empty()) {
            networks.emplace_back(trim(item));
        }
    }
    try {
        settings.webhook_addresses = AddressPolicy(networks);
    } catch (const std::invalid_argument& error) {
        throw std::runtime_error(std::string("plugins.automation.webhook_allowed_networks: ") +
                                 error.what());
    }
    const int64_t attempts = config.get_int("max_attempts", settings.max_attempts);
    if (attempts < 1 || attempts > 50) {
        throw std::runtime_error("plugins.automation.max_attempts: expected 1 to 50");
    }
    settings.max_attempts = static_cast<int>(attempts);
    settings.timeout_ms = config.get_int("timeout_ms", settings.timeout_ms);
    if (settings.timeout_ms < 100 || settings.timeout_ms > 120'000) {
        throw std::runtime_error("plugins.automation.timeout_ms: expected 100 to 120000");
    }
    return settings;
}

}  // namespace loupe::automation
