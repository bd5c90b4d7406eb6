#pragma once
// The chat services a team's administrators register for its automation rules (Loupe's own
// routes; the secrets are sealed at rest and never answered back, only their last characters):
//   GET    /_loupe/accounts/{accountSlug}/chat-targets               the team's, and the names
//                                                                     of the operator's
//   PUT    /_loupe/accounts/{accountSlug}/chat-targets/{kind}/{name}  {"secret": …} adds or
//          replaces: kind slack (name "bot", the bot token), teams or discord (the webhook URL,
//          which may only reach public addresses, like a sendWebhook URL)
//   DELETE /_loupe/accounts/{accountSlug}/chat-targets/{kind}/{name}

#include "automation_settings.hpp"
#include "loupe/host.hpp"
#include "targets/chat_targets.hpp"

namespace loupe::automation {

void add_chat_target_routes(Host& host, const AutomationSettings& settings,
                            const ChatTargets& targets);

}  // namespace loupe::automation
