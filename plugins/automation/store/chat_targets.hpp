#pragma once
// The `automation_chat_targets` rows: the chat services an account registered (a Slack bot
// token, Teams and Discord webhooks by name), their secret sealed.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::automation {

struct ChatTargetRow {
    int64_t account_id = 0;
    std::string kind;  ///< slack | teams | discord
    std::string name;  ///< slack: "bot"; teams, discord: the `webhookId` rules name
    std::string sealed_secret;
    std::string hint;  ///< the secret's last characters
    std::optional<int64_t> created_by;
    int64_t updated_at = 0;
};

/// The account's targets, by kind then name.
std::vector<ChatTargetRow> list_chat_targets(soci::session& session, int64_t account_id);
std::optional<ChatTargetRow> find_chat_target(soci::session& session, int64_t account_id,
                                              const std::string& kind, const std::string& name);
/// Adds the target or replaces its secret.
void save_chat_target(soci::session& session, const ChatTargetRow& target, int64_t now);
/// False when there was none.
bool delete_chat_target(soci::session& session, int64_t account_id, const std::string& kind,
                        const std::string& name);

}  // namespace loupe::automation
