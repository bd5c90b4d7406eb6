#include "store/team_audit.hpp"

namespace loupe::auth::team_audit {
namespace {

template <class Value>
soci::indicator presence(const std::optional<Value>& value) {
    return value ? soci::i_ok : soci::i_null;
}

}  // namespace

void record(soci::session& session, const Entry& entry, int64_t now) {
    long long actor = entry.actor_user_id.value_or(0);
    long long subject = entry.subject_user_id.value_or(0);
    std::string before = entry.before.value_or("");
    std::string after = entry.after.value_or("");
    soci::indicator actor_present = presence(entry.actor_user_id);
    soci::indicator subject_present = presence(entry.subject_user_id);
    soci::indicator before_present = presence(entry.before);
    soci::indicator after_present = presence(entry.after);
    session << "INSERT INTO account_audit (account_id, actor_user_id, action, subject_user_id, "
               "before_value, after_value, created_at) "
               "VALUES (:account, :actor, :action, :subject, :before, :after, :now)",
        soci::use(entry.account_id), soci::use(actor, actor_present), soci::use(entry.action),
        soci::use(subject, subject_present), soci::use(before, before_present),
        soci::use(after, after_present), soci::use(now);
}

}  // namespace loupe::auth::team_audit
