#include "store/invite_mail_link_store.hpp"

#include <soci/soci.h>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::auth {

std::optional<InviteMailLink> InviteMailLinkStore::issue(int64_t invite_id) {
    return host_.db().transaction([&](soci::session& session) -> std::optional<InviteMailLink> {
        const int64_t now = now_ms();
        soci::rowset<soci::row> rows =
            (session.prepare << "SELECT i.email, i.level, i.expires_at, a.slug, a.name, "
                                "u.name AS inviter FROM team_invites i JOIN accounts a ON a.id = "
                                "i.account_id LEFT JOIN users u ON u.id = i.created_by WHERE i.id "
                                "= :id AND i.accepted_at IS NULL AND i.cancelled_at IS NULL AND "
                                "i.expires_at > :now",
             soci::use(invite_id), soci::use(now));
        std::optional<InviteMailLink> link;
        for (const auto& row : rows) {
            const RowReader read(row);
            link = InviteMailLink{.url = {},
                                  .email = read.text("email"),
                                  .level = read.text("level"),
                                  .team_slug = read.text("slug"),
                                  .team_name = read.text("name"),
                                  .inviter_name = read.optional_text("inviter"),
                                  .expires_at = read.int64("expires_at")};
        }
        if (!link) {
            return std::nullopt;
        }
        const std::string token = crypto::random_hex(20);
        const std::string hash = crypto::sha256_hex(token);
        session << "UPDATE team_invites SET mail_token_hash = :hash WHERE id = :id",
            soci::use(hash), soci::use(invite_id);
        link->url = host_.public_url() + "/_loupe/join/" + token;
        return link;
    });
}

void add_invite_mail_migrations(Migrations& migrations) {
    migrations.add(3, "the mailed link of a team invite", R"SQL(
ALTER TABLE team_invites ADD COLUMN mail_token_hash TEXT;
CREATE UNIQUE INDEX team_invites_mail_token ON team_invites (mail_token_hash);
)SQL");
}

}  // namespace loupe::auth
