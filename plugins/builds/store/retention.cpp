#include "store/retention.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {
namespace {

constexpr const char* ids_table = "(SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}})";

int64_t delete_where_in(soci::session& session, const std::string& table, const std::string& column,
                        const std::string& set, const std::string& ids_text) {
    const auto sql =
        render_sql(dialect_of(session), "DELETE FROM " + table + " WHERE " + column + " IN " + set);
    soci::statement statement = (session.prepare << sql, soci::use(ids_text, "ids"));
    statement.execute(true);
    return statement.get_affected_rows();
}

}  // namespace

std::vector<int64_t> projects_with_builds(soci::session& session) {
    std::vector<int64_t> ids;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT DISTINCT project_id FROM builds ORDER BY project_id");
    for (const auto& row : rows) {
        ids.push_back(RowReader(row).int64("project_id"));
    }
    return ids;
}

std::vector<BuildLink> project_build_links(soci::session& session, int64_t project_id) {
    std::vector<BuildLink> links;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, name, branch, created_at, base_build_id FROM builds "
                            "WHERE project_id = :p ORDER BY id",
         soci::use(project_id));
    for (const auto& row : rows) {
        const RowReader read(row);
        BuildLink link;
        link.id = read.int64("id");
        link.name = read.text("name");
        link.branch = read.text("branch");
        link.created_at = read.int64("created_at");
        link.base_build_id = read.optional_int("base_build_id");
        links.push_back(std::move(link));
    }
    return links;
}

void lock_builds(soci::session& session, Dialect dialect, const std::vector<int64_t>& ids) {
    if (dialect != Dialect::postgresql || ids.empty()) {
        return;
    }
    for_each_row_of_ids(
        session,
        std::string("SELECT id FROM builds WHERE id IN ") + ids_table + " ORDER BY id FOR UPDATE",
        ids, [](const soci::row&) {});
}

std::vector<std::pair<int64_t, int64_t>> uses_of_builds(soci::session& session,
                                                        const std::vector<int64_t>& ids) {
    std::vector<std::pair<int64_t, int64_t>> uses;
    const auto collect = [&](const soci::row& row) {
        const RowReader read(row);
        uses.emplace_back(read.int64("used_build_id"), read.int64("user_build_id"));
    };
    for_each_row_of_ids(
        session,
        std::string("SELECT base_build_id AS used_build_id, id AS user_build_id FROM builds "
                    "WHERE base_build_id IN ") +
            ids_table + " AND id <> base_build_id",
        ids, collect);
    for_each_row_of_ids(session,
                        std::string("SELECT DISTINCT s.build_id AS used_build_id, "
                                    "d.build_id AS user_build_id FROM screenshots s "
                                    "JOIN screenshot_diffs d ON d.base_screenshot_id = s.id "
                                    "WHERE s.build_id IN ") +
                            ids_table + " AND d.build_id <> s.build_id",
                        ids, collect);
    return uses;
}

std::vector<int64_t> diff_ids_of_builds(soci::session& session, const std::vector<int64_t>& ids) {
    std::vector<int64_t> diffs;
    for_each_row_of_ids(session,
                        std::string("SELECT id FROM screenshot_diffs WHERE build_id IN ") +
                            ids_table + " ORDER BY id",
                        ids,
                        [&](const soci::row& row) { diffs.push_back(RowReader(row).int64("id")); });
    return diffs;
}

std::vector<std::string> blob_keys_of_builds(soci::session& session,
                                             const std::vector<int64_t>& ids) {
    std::vector<std::string> keys;
    const auto collect = [&](const soci::row& row) {
        if (auto key = RowReader(row).optional_text("blob_key")) {
            keys.push_back(*key);
        }
    };
    for (const char* sql :
         {"SELECT blob_key FROM screenshots WHERE build_id IN ",
          "SELECT pw_trace_key AS blob_key FROM screenshots WHERE pw_trace_key IS NOT NULL "
          "AND build_id IN ",
          "SELECT mask_key AS blob_key FROM screenshot_diffs WHERE mask_key IS NOT NULL AND "
          "build_id IN ",
          // Other builds' diffs against these builds' screenshots go too.
          "SELECT d.mask_key AS blob_key FROM screenshot_diffs d JOIN screenshots s ON s.id "
          "= d.base_screenshot_id WHERE d.mask_key IS NOT NULL AND s.build_id IN "}) {
        for_each_row_of_ids(session, std::string(sql) + ids_table, ids, collect);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

DeletedBuildRows delete_builds(soci::session& session, const std::vector<int64_t>& ids) {
    DeletedBuildRows deleted;
    if (ids.empty()) {
        return deleted;
    }
    Json list = Json::array();
    for (auto id : ids) {
        list.push_back(id);
    }
    const auto text = list.dump();
    // Diffs first: they point at the screenshots, which point at the builds.
    deleted.diffs = delete_where_in(session, "screenshot_diffs", "build_id", ids_table, text);
    deleted.other_diffs = delete_where_in(
        session, "screenshot_diffs", "base_screenshot_id",
        std::string("(SELECT id FROM screenshots WHERE build_id IN ") + ids_table + ")", text);
    deleted.screenshots = delete_where_in(session, "screenshots", "build_id", ids_table, text);
    deleted.shards = delete_where_in(session, "build_shards", "build_id", ids_table, text);
    deleted.builds = delete_where_in(session, "builds", "id", ids_table, text);
    return deleted;
}

}  // namespace loupe::builds
