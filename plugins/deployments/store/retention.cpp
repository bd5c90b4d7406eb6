#include "store/retention.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {
namespace {

/// A JSON array of {"v": value} objects, read in SQL as `value ->> 'v'`.
template <class T>
std::string json_rows(const T& values) {
    Json rows = Json::array();
    for (const auto& value : values) {
        rows.push_back({{"v", value}});
    }
    return rows.dump();
}

/// The first column of `sql`, whose JSON rows are bound as :rows (and again as :again, for a
/// statement that reads them twice).
std::vector<std::string> strings_of(soci::session& session, const std::string& sql,
                                    const std::string& rows) {
    std::vector<std::string> found;
    const std::string rendered = render_sql(dialect_of(session), sql);
    const auto collect = [&found](soci::rowset<std::string>& result) {
        for (const auto& value : result) {
            found.push_back(value);
        }
    };
    if (rendered.find(":again") == std::string::npos) {
        soci::rowset<std::string> result = (session.prepare << rendered, soci::use(rows, "rows"));
        collect(result);
    } else {
        soci::rowset<std::string> result =
            (session.prepare << rendered, soci::use(rows, "rows"), soci::use(rows, "again"));
        collect(result);
    }
    return found;
}

}  // namespace

std::vector<int64_t> deployments_created_before(soci::session& session, int64_t cutoff_ms,
                                                bool keep_aliased) {
    std::vector<int64_t> ids;
    std::string sql = "SELECT id FROM deployments WHERE created_at < :cutoff";
    if (keep_aliased) {
        sql += " AND id NOT IN (SELECT deployment_id FROM deployment_aliases)";
    }
    soci::rowset<soci::row> rows =
        (session.prepare << sql + " ORDER BY id", soci::use(cutoff_ms, "cutoff"));
    for (const auto& row : rows) {
        ids.push_back(RowReader(row).int64("id"));
    }
    return ids;
}

std::vector<std::string> delete_deployments(soci::session& session, const std::vector<int64_t>& ids,
                                            int64_t& file_rows) {
    file_rows = 0;
    if (ids.empty()) {
        return {};
    }
    const std::string rows = json_rows(ids);
    const auto dialect = dialect_of(session);
    const std::string in_ids = " IN (SELECT CAST(value ->> 'v' AS BIGINT) FROM {{json_rows:rows}})";
    auto hashes = strings_of(
        session, "SELECT DISTINCT hash FROM deployment_files WHERE deployment_id" + in_ids, rows);
    session << render_sql(dialect,
                          "SELECT COUNT(*) FROM deployment_files WHERE deployment_id" + in_ids),
        soci::use(rows, "rows"), soci::into(file_rows);
    for (const char* table : {"deployment_files", "deployment_aliases", "deployment_links"}) {
        session << render_sql(
            dialect, std::string("DELETE FROM ") + table + " WHERE deployment_id" + in_ids),
            soci::use(rows, "rows");
    }
    session << render_sql(dialect, "DELETE FROM deployments WHERE id" + in_ids),
        soci::use(rows, "rows");
    return hashes;
}

std::vector<std::string> unregister_unused_contents(soci::session& session,
                                                    const std::vector<std::string>& hashes) {
    if (hashes.empty()) {
        return {};
    }
    const auto dialect = dialect_of(session);
    const std::string unused_rows = json_rows(
        strings_of(session,
                   "SELECT value ->> 'v' FROM {{json_rows:rows}} WHERE NOT EXISTS (SELECT 1 FROM "
                   "deployment_files f WHERE f.hash = value ->> 'v')",
                   json_rows(hashes)));
    std::vector<std::string> released = strings_of(
        session,
        "SELECT hash FROM deployment_contents WHERE hash IN (SELECT value ->> 'v' FROM "
        "{{json_rows:rows}}) UNION SELECT gzip_hash FROM deployment_contents WHERE gzip_hash IS "
        "NOT NULL AND hash IN (SELECT value ->> 'v' FROM {{json_rows:again}})",
        unused_rows);
    // Contents never registered (a pending deployment's uploads) are released too.
    for (const auto& hash : Json::parse(unused_rows)) {
        released.push_back(hash.at("v").get<std::string>());
    }
    session << render_sql(dialect,
                          "DELETE FROM deployment_contents WHERE hash IN (SELECT value "
                          "->> 'v' FROM {{json_rows:rows}})"),
        soci::use(unused_rows, "rows");
    std::sort(released.begin(), released.end());
    released.erase(std::unique(released.begin(), released.end()), released.end());
    return released;
}

std::set<std::string> referenced_by_deployments(soci::session& session,
                                                const std::vector<std::string>& keys) {
    std::set<std::string> referenced;
    if (keys.empty()) {
        return referenced;
    }
    const std::string rows = json_rows(keys);
    soci::rowset<std::string> found =
        (session.prepare << render_sql(
             dialect_of(session),
             "SELECT hash FROM deployment_files WHERE hash IN (SELECT value ->> 'v' FROM "
             "{{json_rows:files}}) UNION SELECT gzip_hash FROM deployment_contents WHERE "
             "gzip_hash IN (SELECT value ->> 'v' FROM {{json_rows:variants}})"),
         soci::use(rows, "files"), soci::use(rows, "variants"));
    for (const auto& key : found) {
        referenced.insert(key);
    }
    return referenced;
}

}  // namespace loupe::deployments
