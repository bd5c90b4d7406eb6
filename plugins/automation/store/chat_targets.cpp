#include "store/chat_targets.hpp"

#include "loupe/db/nullable.hpp"
#include "loupe/db/row_reader.hpp"

namespace loupe::automation {
namespace {

constexpr const char* target_columns =
    "account_id, kind, name, sealed_secret, hint, created_by, updated_at";

ChatTargetRow read_target(const soci::row& row) {
    const RowReader read(row);
    ChatTargetRow target;
    target.account_id = read.int64("account_id");
    target.kind = read.text("kind");
    target.name = read.text("name");
    target.sealed_secret = read.text("sealed_secret");
    target.hint = read.text("hint");
    target.created_by = read.optional_int("created_by");
    target.updated_at = read.int64("updated_at");
    return target;
}

}  // namespace

std::vector<ChatTargetRow> list_chat_targets(soci::session& session, int64_t account_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT ") + target_columns +
                                " FROM automation_chat_targets WHERE account_id = :account ORDER "
                                "BY kind, name",
         soci::use(account_id));
    std::vector<ChatTargetRow> targets;
    for (const auto& row : rows) {
        targets.push_back(read_target(row));
    }
    return targets;
}

std::optional<ChatTargetRow> find_chat_target(soci::session& session, int64_t account_id,
                                              const std::string& kind, const std::string& name) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT ") + target_columns +
                                " FROM automation_chat_targets WHERE account_id = :account AND "
                                "kind = :kind AND name = :name",
         soci::use(account_id), soci::use(kind), soci::use(name));
    for (const auto& row : rows) {
        return read_target(row);
    }
    return std::nullopt;
}

void save_chat_target(soci::session& session, const ChatTargetRow& target, int64_t now) {
    Nullable created_by(target.created_by);
    session << "INSERT INTO automation_chat_targets (account_id, kind, name, sealed_secret, hint, "
               "created_by, created_at, updated_at) VALUES (:account, :kind, :name, :sealed, "
               ":hint, :by, :created, :updated) ON CONFLICT (account_id, kind, name) DO UPDATE "
               "SET sealed_secret = excluded.sealed_secret, hint = excluded.hint, created_by = "
               "excluded.created_by, updated_at = excluded.updated_at",
        soci::use(target.account_id), soci::use(target.kind), soci::use(target.name),
        soci::use(target.sealed_secret), soci::use(target.hint),
        soci::use(created_by.value, created_by.indicator), soci::use(now), soci::use(now);
}

bool delete_chat_target(soci::session& session, int64_t account_id, const std::string& kind,
                        const std::string& name) {
    soci::statement statement =
        (session.prepare << "DELETE FROM automation_chat_targets WHERE account_id = :account AND "
                            "kind = :kind AND name = :name",
         soci::use(account_id), soci::use(kind), soci::use(name));
    statement.execute(true);
    return statement.get_affected_rows() > 0;
}

}  // namespace loupe::automation
