#include "store/team_audit.hpp"

#include "loupe/db/row_reader.hpp"

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

EntryPage list(soci::session& session, int64_t account_id, int64_t offset, int64_t limit) {
    EntryPage page;
    long long total = 0;
    session << "SELECT COUNT(*) FROM account_audit WHERE account_id = :account",
        soci::use(account_id), soci::into(total);
    page.total = total;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, actor_user_id, action, subject_user_id, before_value, "
                            "after_value, created_at FROM account_audit WHERE account_id = "
                            ":account ORDER BY id DESC LIMIT :limit OFFSET :offset",
         soci::use(account_id), soci::use(limit), soci::use(offset));
    for (const auto& row : rows) {
        const RowReader read(row);
        StoredEntry stored;
        stored.id = read.int64("id");
        stored.entry.account_id = account_id;
        stored.entry.actor_user_id = read.optional_int("actor_user_id");
        stored.entry.action = read.text("action");
        stored.entry.subject_user_id = read.optional_int("subject_user_id");
        stored.entry.before = read.optional_text("before_value");
        stored.entry.after = read.optional_text("after_value");
        stored.created_at = read.int64("created_at");
        page.entries.push_back(std::move(stored));
    }
    return page;
}

}  // namespace loupe::auth::team_audit
