#pragma once
// Where the chat actions of an account's rules post: the chat services the account's
// administrators registered (GET/PUT/DELETE /_loupe/accounts/{accountSlug}/chat-targets…), else
// the operator's (`plugins.automation.*`). A target the account registered wins over the
// operator's of the same name.
//   slack              the account's Slack bot token, else `slack_bot_token`
//   teams / discord    the account's webhook of that name, else `teams_webhook.<name>` /
//                      `discord_webhook.<name>`
// Secrets are sealed at rest (loupe/crypto/sealed_box.hpp) with the key in
// `plugins.automation.secrets_key_file` (default `{data.dir}/automation-secrets.key`, created
// on first start); each is bound to its account, kind and name, so a sealed value copied to
// another row does not open.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

#include "automation_settings.hpp"

namespace loupe::automation {

inline constexpr const char* slack_target_name = "bot";

/// A secret for a delivery: the value, or why there is none.
struct TargetSecret {
    std::optional<std::string> value;
    std::string error;
    bool from_account = false;  ///< the team's (a URL an administrator typed), not the operator's
};

class ChatTargets {
public:
    ChatTargets(const AutomationSettings& settings, std::string key);

    /// Whether the account's rules may post to Slack.
    bool has_slack(soci::session& session, int64_t account_id) const;
    /// Whether a `webhookId` names a webhook of `kind` (teams | discord) for the account.
    bool has_webhook(soci::session& session, int64_t account_id, const std::string& kind,
                     const std::string& name) const;

    TargetSecret slack_token(soci::session& session, int64_t account_id) const;
    TargetSecret webhook_url(soci::session& session, int64_t account_id, const std::string& kind,
                             const std::string& name) const;

    /// `secret` sealed for the account's target of this kind and name.
    std::string seal(int64_t account_id, const std::string& kind, const std::string& name,
                     const std::string& secret) const;

private:
    TargetSecret account_secret(soci::session& session, int64_t account_id, const std::string& kind,
                                const std::string& name) const;

    const AutomationSettings& settings_;
    std::string key_;
};

}  // namespace loupe::automation
