#include "store/requested_reviewers.hpp"

#include <soci/soci.h>

#include <set>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {

std::vector<RequestedReviewer> requested_reviewers(soci::session& session, int64_t build_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT r.user_id, a.id AS account_id, u.slug, u.name "
                            "FROM build_requested_reviewers r JOIN users u ON u.id = r.user_id "
                            "JOIN accounts a ON a.user_id = u.id WHERE r.build_id = :build "
                            "ORDER BY r.created_at, r.user_id",
         soci::use(build_id));
    std::vector<RequestedReviewer> reviewers;
    for (const auto& row : rows) {
        const RowReader read(row);
        reviewers.push_back({read.int64("user_id"), read.int64("account_id"), read.text("slug"),
                             read.text("name")});
    }
    return reviewers;
}

std::vector<int64_t> users_of_accounts(soci::session& session,
                                       const std::vector<int64_t>& account_ids) {
    std::set<int64_t> users;
    for (const int64_t account_id : account_ids) {
        long long user_id = 0;
        soci::indicator present = soci::i_null;
        session << "SELECT user_id FROM accounts WHERE id = :id", soci::use(account_id),
            soci::into(user_id, present);
        if (session.got_data() && present == soci::i_ok) {
            users.insert(user_id);
        }
    }
    return {users.begin(), users.end()};
}

bool request_reviewer(soci::session& session, int64_t build_id, int64_t user_id,
                      int64_t requested_by) {
    const int64_t now = now_ms();
    soci::statement insert =
        (session.prepare << "INSERT INTO build_requested_reviewers (build_id, user_id, "
                            "requested_by, created_at) VALUES (:build, :user, :by, :now) "
                            "ON CONFLICT (build_id, user_id) DO NOTHING",
         soci::use(build_id), soci::use(user_id), soci::use(requested_by), soci::use(now));
    insert.execute(true);
    return insert.get_affected_rows() == 1;
}

bool belongs_to_account(soci::session& session, int64_t account_id, int64_t user_id) {
    long long belongs = 0;
    session << "SELECT COUNT(*) FROM accounts a WHERE a.id = :account AND (a.user_id = :user "
               "OR EXISTS (SELECT 1 FROM team_members m WHERE m.account_id = a.id AND "
               "m.user_id = :member))",
        soci::use(account_id), soci::use(user_id), soci::use(user_id), soci::into(belongs);
    return belongs > 0;
}

void cancel_reviewer(soci::session& session, int64_t build_id, int64_t user_id) {
    session << "DELETE FROM build_requested_reviewers WHERE build_id = :build AND user_id = :user",
        soci::use(build_id), soci::use(user_id);
}

std::vector<WaitingReview> waiting_reviews(soci::session& session, int64_t user_id, int limit) {
    soci::rowset<soci::row> rows =
        (session.prepare
             << "SELECT r.build_id, r.created_at, r.requested_by FROM "
                "build_requested_reviewers r WHERE r.user_id = :user AND NOT EXISTS "
                "(SELECT 1 FROM reviews v WHERE v.build_id = r.build_id AND "
                "v.user_id = :reviewer AND v.state IN ('approved', 'rejected') AND "
                "v.dismissed_at IS NULL) ORDER BY r.created_at, r.build_id LIMIT :limit",
         soci::use(user_id, "user"), soci::use(user_id, "reviewer"), soci::use(limit, "limit"));
    std::vector<WaitingReview> waiting;
    for (const auto& row : rows) {
        const RowReader read(row);
        waiting.push_back(
            {read.int64("build_id"), read.int64("created_at"), read.optional_int("requested_by")});
    }
    return waiting;
}

}  // namespace loupe::reviews
