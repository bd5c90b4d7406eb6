#pragma once
// One-click unsubscribe links: "<user>.<kind>.<expires>" signed with HMAC-SHA256 under the
// server's secret, so the link works without signing in, only for that user and kind of mail,
// and only until it expires (rotating the secret revokes every link).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loupe::notifications {

struct UnsubscribeClaim {
    int64_t user_id = 0;
    std::string kind;
    int64_t expires_at = 0;  ///< epoch milliseconds
};

std::string sign_unsubscribe_token(std::string_view secret, const UnsubscribeClaim& claim);

/// The claim of a token signed with `secret` and not expired at `now`; nullopt otherwise.
std::optional<UnsubscribeClaim> verify_unsubscribe_token(std::string_view secret,
                                                         std::string_view token, int64_t now);

}  // namespace loupe::notifications
