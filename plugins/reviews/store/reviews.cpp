#include "store/reviews.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {
namespace {

constexpr const char* review_columns =
    "id, build_id, project_id, user_id, state, inherited_from, dismissed_at, dismissed_by, "
    "created_at, submitted_at";

Review read_review(const soci::row& row) {
    RowReader r(row);
    Review review;
    review.id = r.int64("id");
    review.build_id = r.int64("build_id");
    review.project_id = r.int64("project_id");
    review.user_id = r.optional_int("user_id");
    review.state = r.text("state");
    review.inherited_from = r.optional_int("inherited_from");
    review.dismissed_at = r.optional_int("dismissed_at");
    review.dismissed_by = r.optional_int("dismissed_by");
    review.created_at = r.int64("created_at");
    review.submitted_at = r.optional_int("submitted_at");
    return review;
}

std::vector<Review> select_reviews(soci::session& session, const std::string& where,
                                   const std::vector<int64_t>& values) {
    soci::statement statement(session);
    statement.alloc();
    statement.prepare(std::string("SELECT ") + review_columns + " FROM reviews WHERE " + where);
    for (const auto& value : values) {
        statement.exchange(soci::use(value));
    }
    soci::row row;
    statement.exchange(soci::into(row));
    statement.define_and_bind();
    std::vector<Review> reviews;
    if (statement.execute(true)) {
        do {
            reviews.push_back(read_review(row));
        } while (statement.fetch());
    }
    return reviews;
}

}  // namespace

// Optional ids travel as 0 and become NULL through NULLIF (ids start at 1).
void insert_review(soci::session& session, Review& review) {
    const int64_t user_id = review.user_id.value_or(0);
    const int64_t inherited = review.inherited_from.value_or(0);
    const int64_t submitted = review.submitted_at.value_or(0);
    session << "INSERT INTO reviews (build_id, project_id, user_id, state, inherited_from, "
               "created_at, submitted_at, updated_at) VALUES (:b, :p, NULLIF(:u, CAST(0 AS "
               "BIGINT)), :s, NULLIF(:i, CAST(0 AS BIGINT)), :c, NULLIF(:sub, CAST(0 AS BIGINT)), "
               ":c2) RETURNING id",
        soci::use(review.build_id), soci::use(review.project_id), soci::use(user_id),
        soci::use(review.state), soci::use(inherited), soci::use(review.created_at),
        soci::use(submitted), soci::use(review.created_at), soci::into(review.id);
}

std::optional<Review> find_review(soci::session& session, int64_t id, bool for_update) {
    std::string where = "id = :id";
    if (for_update && dialect_of(session) == Dialect::postgresql) {
        where += " FOR UPDATE";
    }
    auto found = select_reviews(session, where, {id});
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

std::optional<Review> pending_review(soci::session& session, int64_t build_id, int64_t user_id) {
    auto found = select_reviews(session,
                                "build_id = :b AND user_id = :u AND state = 'pending' AND "
                                "dismissed_at IS NULL ORDER BY id LIMIT 1",
                                {build_id, user_id});
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

void submit_review(soci::session& session, int64_t review_id, const std::string& state,
                   int64_t at) {
    session
        << "UPDATE reviews SET state = :s, submitted_at = :at, updated_at = :at2 WHERE id = :id",
        soci::use(state), soci::use(at), soci::use(at), soci::use(review_id);
}

void dismiss_review(soci::session& session, int64_t review_id, int64_t by_user, int64_t at) {
    session << "UPDATE reviews SET dismissed_at = :at, dismissed_by = :by, updated_at = :at2 "
               "WHERE id = :id",
        soci::use(at), soci::use(by_user), soci::use(at), soci::use(review_id);
}

std::vector<Review> build_reviews(soci::session& session, int64_t build_id) {
    return select_reviews(session, "build_id = :b ORDER BY created_at, id", {build_id});
}

void save_snapshot_decisions(soci::session& session, int64_t review_id,
                             const std::vector<SnapshotDecision>& decisions) {
    session << "DELETE FROM review_snapshots WHERE review_id = :r", soci::use(review_id);
    if (decisions.empty()) {
        return;
    }
    Json rows = Json::array();
    for (const auto& decision : decisions) {
        rows.push_back({{"diff", decision.diff_id}, {"conclusion", decision.conclusion}});
    }
    const std::string rows_text = rows.dump();
    session << render_sql(dialect_of(session),
                          "INSERT INTO review_snapshots (review_id, diff_id, conclusion) SELECT "
                          ":review, CAST(value ->> 'diff' AS BIGINT), value ->> 'conclusion' FROM "
                          "{{json_rows:rows}} ORDER BY position ON CONFLICT (review_id, diff_id) "
                          "DO UPDATE SET conclusion = excluded.conclusion"),
        soci::use(review_id, "review"), soci::use(rows_text, "rows");
}

std::vector<std::pair<int64_t, SnapshotDecision>> snapshot_decisions(
    soci::session& session, const std::vector<int64_t>& review_ids) {
    std::vector<std::pair<int64_t, SnapshotDecision>> decisions;
    for_each_row_of_ids(session,
                        "SELECT review_id, diff_id, conclusion FROM review_snapshots WHERE "
                        "review_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}}) ORDER "
                        "BY review_id, diff_id",
                        review_ids, [&](const soci::row& row) {
                            RowReader r(row);
                            decisions.emplace_back(
                                r.int64("review_id"),
                                SnapshotDecision{r.int64("diff_id"), r.text("conclusion")});
                        });
    return decisions;
}

}  // namespace loupe::reviews
