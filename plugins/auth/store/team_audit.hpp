#pragma once
// The audit trail of team administration (the auth plugin's account_audit table): one account_audit
// row per change, written on the session of the change's own transaction so that both commit or
// neither does.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::auth::team_audit {

struct Entry {
    int64_t account_id = 0;
    std::optional<int64_t> actor_user_id;  ///< nullopt: the `loupe admin` command
    std::string action;                    ///< "member.role", "member.remove", ...
    std::optional<int64_t> subject_user_id;
    std::optional<std::string> before;
    std::optional<std::string> after;
};

void record(soci::session& session, const Entry& entry, int64_t now);

/// An entry as stored, with its id and time.
struct StoredEntry {
    int64_t id = 0;
    Entry entry;
    int64_t created_at = 0;
};

struct EntryPage {
    std::vector<StoredEntry> entries;  ///< newest first
    int64_t total = 0;
};

/// A page of the account's entries, newest first.
EntryPage list(soci::session& session, int64_t account_id, int64_t offset, int64_t limit);

}  // namespace loupe::auth::team_audit
