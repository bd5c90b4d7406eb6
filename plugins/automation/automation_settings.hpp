#pragma once
// Where the actions of automation rules post, read from `plugins.automation.*`:
//
//   slack_api_url       the Slack Web API base (default https://slack.com/api); messages go to
//                       {slack_api_url}/chat.postMessage with the bot token, to the channel the
//                       action names (its id, else its name)
//   slack_bot_token     the Slack app's bot token (xoxb-…); without it Slack actions are refused
//   teams_webhook.<id>  a Microsoft Teams incoming webhook (Workflows) URL, named <id>: the
//                       `webhookId` a sendMsTeamsMessage action gives
//   discord_webhook.<id> a Discord channel webhook URL, named <id> (sendDiscordMessage)
//   webhook_allowed_networks
//                       comma-separated CIDR blocks (or addresses) a sendWebhook URL may reach
//                       although they are not public: by default a webhook only reaches public
//                       addresses, never loopback, private, link-local (cloud metadata) or other
//                       special ones (loupe/http/address_policy.hpp)
//   secrets_key_file    the key the teams' chat secrets are sealed with (64 hex digits; default
//                       {data.dir}/automation-secrets.key, created on first start): the same
//                       file on every instance
//   max_attempts        deliveries of one action before it is marked failed (default 5)
//   timeout_ms          the longest one delivery may take (default 10000)

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "loupe/config/config_view.hpp"
#include "loupe/http/address_policy.hpp"

namespace loupe::automation {

struct AutomationSettings {
    std::string slack_api_url = "https://slack.com/api";
    std::string slack_bot_token;
    std::map<std::string, std::string> teams_webhooks;    ///< id → URL
    std::map<std::string, std::string> discord_webhooks;  ///< id → URL
    AddressPolicy webhook_addresses;  ///< where sendWebhook and teams' webhooks may connect
    std::string secrets_key_file;     ///< empty: {data.dir}/automation-secrets.key
    int max_attempts = 5;
    int64_t timeout_ms = 10'000;
};

/// Reads the section; throws std::runtime_error naming a key whose value is not valid.
AutomationSettings read_automation_settings(const ConfigView& config);

/// Whether `url` is an absolute http:// or https:// URL with a host.
bool is_http_url(const std::string& url);

/// Why a webhook may not post to `url` when its host is an IP address the policy refuses;
/// nullopt otherwise (a host name is checked when the webhook is sent, as it resolves then).
std::optional<std::string> refused_webhook_address(const AddressPolicy& policy,
                                                   const std::string& url);

}  // namespace loupe::automation
