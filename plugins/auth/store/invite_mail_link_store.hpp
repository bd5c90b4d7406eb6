#pragma once
// The auth plugin's InviteMailLinks: a second link per email invite, for the mail about it
// (the invite's first link is only in the answer that made it). Its hash is kept in
// team_invites.mail_token_hash beside the first; refreshing the invite clears it.

#include "loupe/auth/invite_mail_links.hpp"
#include "loupe/db/migrations.hpp"
#include "loupe/host.hpp"

namespace loupe::auth {

class InviteMailLinkStore final : public InviteMailLinks {
public:
    explicit InviteMailLinkStore(Host& host) : host_(host) {}
    std::optional<InviteMailLink> issue(int64_t invite_id) override;

private:
    Host& host_;
};

/// The plugin's third migration: the mailed link of an invite.
void add_invite_mail_migrations(Migrations& migrations);

}  // namespace loupe::auth
