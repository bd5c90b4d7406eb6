#include "store/build_rows.hpp"

#include <soci/soci.h>

#include <string>

#include "loupe/db/dialect.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {
namespace {

constexpr const char* build_ids = "(SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}})";

int64_t run(soci::session& session, const std::string& sql, const std::string& ids) {
    soci::statement statement =
        (session.prepare << render_sql(dialect_of(session), sql), soci::use(ids, "ids"));
    statement.execute(true);
    return statement.get_affected_rows();
}

}  // namespace

builds::DeletedRows delete_rows_of_builds(soci::session& session,
                                          const std::vector<int64_t>& build_ids_list) {
    if (build_ids_list.empty()) {
        return {};
    }
    const std::string ids = Json(build_ids_list).dump();
    const std::string comments_of_builds =
        std::string("(SELECT id FROM comments WHERE build_id IN ") + build_ids + ")";
    const std::string reviews_of_builds =
        std::string("(SELECT id FROM reviews WHERE build_id IN ") + build_ids + ")";
    const auto reactions = run(
        session, "DELETE FROM comment_reactions WHERE comment_id IN " + comments_of_builds, ids);
    const auto thread_subscriptions = run(
        session, "DELETE FROM thread_subscriptions WHERE comment_id IN " + comments_of_builds, ids);
    const auto comments =
        run(session, std::string("DELETE FROM comments WHERE build_id IN ") + build_ids, ids);
    run(session, "DELETE FROM review_snapshots WHERE review_id IN " + reviews_of_builds, ids);
    const auto reviews =
        run(session, std::string("DELETE FROM reviews WHERE build_id IN ") + build_ids, ids);
    const auto build_subscriptions =
        run(session, std::string("DELETE FROM build_subscriptions WHERE build_id IN ") + build_ids,
            ids);
    return {{"reviews", reviews},
            {"comments", comments},
            {"reactions", reactions},
            {"subscriptions", thread_subscriptions + build_subscriptions}};
}

}  // namespace loupe::reviews
