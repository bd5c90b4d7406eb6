#pragma once
// The mail inviting someone to a team: who invited them, to which team, as which role, the
// link that opens the join page, and until when it works. Team and inviter names are user
// content: escaped in the HTML part, on one line in the subject.

#include "loupe/auth/invite_mail_links.hpp"
#include "message/digest_message.hpp"

namespace loupe::notifications {

DigestMessage build_invite_message(const auth::InviteMailLink& link);

}  // namespace loupe::notifications
