#pragma once
// Links for mailing a team invite. The invite's own link exists in clear only in the answer
// that made it (the server keeps its hash), so the plugin that mails the invite asks for a
// second link of the same invite: a new token whose hash is kept beside the first. Either
// link opens the invite until it is accepted, cancelled, refreshed or expires; asking again
// replaces the mailed link (the previous mailed one stops working). Look it up at install time
// with `host.services().find<loupe::auth::InviteMailLinks>()` (nullptr when the auth plugin is
// not enabled) and declare LOUPE_REQUIRES("auth").
// OWNERSHIP: owned by the auth plugin for the process lifetime. THREADS: thread-safe.

#include <cstdint>
#include <optional>
#include <string>

namespace loupe::auth {

/// What a mail about one invite says.
struct InviteMailLink {
    std::string url;  ///< <public URL>/_loupe/join/<token>
    std::string email;
    std::string level;  ///< owner | member | contributor
    std::string team_slug;
    std::string team_name;
    std::optional<std::string> inviter_name;
    int64_t expires_at = 0;  ///< epoch milliseconds
};

class InviteMailLinks {
public:
    static constexpr const char* service_name = "auth.InviteMailLinks";
    static constexpr int service_version = 1;

    virtual ~InviteMailLinks() = default;
    /// A new mailed link for the invite, in its own transaction; nullopt when the invite is no
    /// longer pending (accepted, cancelled) or has expired.
    virtual std::optional<InviteMailLink> issue(int64_t invite_id) = 0;
};

}  // namespace loupe::auth
