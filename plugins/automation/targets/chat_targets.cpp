#include "targets/chat_targets.hpp"

#include <utility>

#include "loupe/crypto/sealed_box.hpp"
#include "store/chat_targets.hpp"

namespace loupe::automation {
namespace {

/// What a sealed secret is bound to: opening it under another account, kind or name fails.
std::string seal_context(int64_t account_id, const std::string& kind, const std::string& name) {
    return "automation.chat_target:" + std::to_string(account_id) + ":" + kind + ":" + name;
}

const std::map<std::string, std::string>& operator_webhooks(const AutomationSettings& settings,
                                                            const std::string& kind) {
    return kind == "teams" ? settings.teams_webhooks : settings.discord_webhooks;
}

}  // namespace

ChatTargets::ChatTargets(const AutomationSettings& settings, std::string key)
    : settings_(settings), key_(std::move(key)) {}

bool ChatTargets::has_slack(soci::session& session, int64_t account_id) const {
    return !settings_.slack_bot_token.empty() ||
           find_chat_target(session, account_id, "slack", slack_target_name).has_value();
}

bool ChatTargets::has_webhook(soci::session& session, int64_t account_id, const std::string& kind,
                              const std::string& name) const {
    return operator_webhooks(settings_, kind).contains(name) ||
           find_chat_target(session, account_id, kind, name).has_value();
}

TargetSecret ChatTargets::account_secret(soci::session& session, int64_t account_id,
                                         const std::string& kind, const std::string& name) const {
    const auto target = find_chat_target(session, account_id, kind, name);
    if (!target) {
        return {};
    }
    auto opened =
        crypto::open_sealed(key_, target->sealed_secret, seal_context(account_id, kind, name));
    if (!opened) {
        return {std::nullopt,
                "the team's " + kind +
                    " secret does not open with this server's key "
                    "(plugins.automation.secrets_key_file must be the same on every instance)"};
    }
    return {std::move(opened), "", true};
}

TargetSecret ChatTargets::slack_token(soci::session& session, int64_t account_id) const {
    auto secret = account_secret(session, account_id, "slack", slack_target_name);
    if (!secret.value && secret.error.empty() && !settings_.slack_bot_token.empty()) {
        secret.value = settings_.slack_bot_token;
    }
    return secret;
}

TargetSecret ChatTargets::webhook_url(soci::session& session, int64_t account_id,
                                      const std::string& kind, const std::string& name) const {
    auto secret = account_secret(session, account_id, kind, name);
    if (!secret.value && secret.error.empty()) {
        const auto& hooks = operator_webhooks(settings_, kind);
        if (const auto hook = hooks.find(name); hook != hooks.end()) {
            secret.value = hook->second;
        }
    }
    return secret;
}

std::string ChatTargets::seal(int64_t account_id, const std::string& kind, const std::string& name,
                              const std::string& secret) const {
    return crypto::seal(key_, secret, seal_context(account_id, kind, name));
}

}  // namespace loupe::automation
