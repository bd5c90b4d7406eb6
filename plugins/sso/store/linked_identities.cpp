#include "store/linked_identities.hpp"

namespace loupe::sso::linked_identities {

std::optional<int64_t> user_of(soci::session& session, const std::string& provider,
                               const std::string& subject) {
    long long user_id = 0;
    session << "SELECT user_id FROM sso_identities WHERE provider = :provider AND subject = "
               ":subject",
        soci::use(provider), soci::use(subject), soci::into(user_id);
    return session.got_data() ? std::optional<int64_t>(user_id) : std::nullopt;
}

void link(soci::session& session, const std::string& provider, const std::string& subject,
          int64_t user_id, const std::string& email, int64_t now) {
    session << "INSERT INTO sso_identities (provider, subject, user_id, email, created_at, "
               "last_sign_in_at) VALUES (:provider, :subject, :user, :email, :created, :seen) "
               "ON CONFLICT (provider, subject) DO UPDATE SET email = excluded.email, "
               "last_sign_in_at = excluded.last_sign_in_at",
        soci::use(provider), soci::use(subject), soci::use(user_id), soci::use(email),
        soci::use(now), soci::use(now);
}

}  // namespace loupe::sso::linked_identities
