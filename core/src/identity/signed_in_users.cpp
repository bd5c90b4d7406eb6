// Users who arrive through an identity provider: found by their verified address, created with a
// slug derived from it, and given or removed from teams as the provider's groups say.
#include <soci/soci.h>

#include "identity/identity_rows.hpp"
#include "identity/identity_store.hpp"
#include "identity/identity_writes.hpp"
#include "identity/names.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

/// Lower-case letters, digits and single dashes, no dash at either end, at most `length`.
std::string slug_from(std::string_view hint, std::size_t length) {
    std::string slug;
    for (const char raw : hint) {
        const char c = to_lower(raw);
        const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (keep) {
            slug.push_back(c);
        } else if (!slug.empty() && slug.back() != '-') {
            slug.push_back('-');
        }
        if (slug.size() >= length) {
            break;
        }
    }
    while (!slug.empty() && slug.back() == '-') {
        slug.pop_back();
    }
    return slug.empty() ? std::string("user") : slug;
}

bool slug_in_use(soci::session& session, const std::string& slug) {
    long long uses = 0;
    session << "SELECT (SELECT COUNT(*) FROM accounts WHERE slug = :a) + "
               "(SELECT COUNT(*) FROM users WHERE slug = :u)",
        soci::use(slug), soci::use(slug), soci::into(uses);
    return uses > 0;
}

}  // namespace

std::optional<User> IdentityStore::find_user_by_email(soci::session& session,
                                                      const std::string& email) {
    const std::string key = to_lower(trim(email));
    long long user_id = 0;
    session << "SELECT id FROM users WHERE email = :email", soci::use(key), soci::into(user_id);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return identity_rows::user_by_id(session, user_id);
}

std::optional<std::string> IdentityStore::user_email(soci::session& session, int64_t user_id) {
    std::string email;
    soci::indicator present = soci::i_null;
    session << "SELECT email FROM users WHERE id = :id", soci::use(user_id),
        soci::into(email, present);
    if (!session.got_data() || present != soci::i_ok) {
        return std::nullopt;
    }
    return email;
}

void IdentityStore::set_user_email(soci::session& session, int64_t user_id,
                                   const std::string& email) {
    const std::string key = to_lower(trim(email));
    long long holder = 0;
    session << "SELECT id FROM users WHERE email = :email AND id <> :id", soci::use(key),
        soci::use(user_id), soci::into(holder);
    if (session.got_data()) {
        throw HttpError::conflict("The address " + key + " belongs to another user");
    }
    session << "UPDATE users SET email = :email WHERE id = :id", soci::use(key), soci::use(user_id);
}

User IdentityStore::create_user(soci::session& session, const std::string& slug_hint,
                                const std::string& name, const std::optional<std::string>& email) {
    // Room for "-" and a number of up to 4 digits after the base.
    const std::string base = slug_from(slug_hint, max_slug_length - 5);
    std::string slug = base;
    for (int suffix = 2; reserved_slugs_.contains(slug) || slug_in_use(session, slug); ++suffix) {
        if (suffix > 9999) {
            throw HttpError::conflict("No free slug for \"" + base + "\"");
        }
        slug = base + "-" + std::to_string(suffix);
    }
    std::string display_name(trim(name));
    if (display_name_problem(display_name)) {
        display_name = slug;
    }
    User user = identity_writes::create_user(session, slug, display_name, false, now_ms());
    if (email) {
        set_user_email(session, user.id, *email);
    }
    return user;
}

std::optional<Role> IdentityStore::member_role(soci::session& session, const Account& team,
                                               int64_t user_id) {
    return identity_rows::team_role(session, team.id, user_id);
}

bool IdentityStore::set_member_role(soci::session& session, const Account& team, int64_t user_id,
                                    std::optional<Role> role) {
    const auto held = identity_rows::team_role(session, team.id, user_id);
    if (held == role) {
        return true;
    }
    if (held == Role::owner) {
        long long owners = 0;
        session << "SELECT COUNT(*) FROM team_members WHERE account_id = :account AND role = "
                   "'owner'",
            soci::use(team.id), soci::into(owners);
        if (owners <= 1) {
            return false;
        }
    }
    if (!role) {
        session << "DELETE FROM team_members WHERE account_id = :account AND user_id = :user",
            soci::use(team.id), soci::use(user_id);
        return true;
    }
    const std::string role_text(role_name(*role));
    const int64_t now = now_ms();
    session << "INSERT INTO team_members (account_id, user_id, role, created_at) "
               "VALUES (:account, :user, :role, :now) "
               "ON CONFLICT (account_id, user_id) DO UPDATE SET role = excluded.role",
        soci::use(team.id), soci::use(user_id), soci::use(role_text), soci::use(now);
    return true;
}

}  // namespace loupe
