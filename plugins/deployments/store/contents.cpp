#include "store/contents.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {

std::set<std::string> registered_hashes(soci::session& session,
                                        const std::vector<std::string>& hashes) {
    std::set<std::string> found;
    if (hashes.empty()) {
        return found;
    }
    Json rows = Json::array();
    for (const auto& hash : hashes) {
        rows.push_back({{"hash", hash}});
    }
    const std::string rows_text = rows.dump();
    soci::rowset<std::string> registered =
        (session.prepare << render_sql(dialect_of(session),
                                       "SELECT hash FROM deployment_contents WHERE hash IN "
                                       "(SELECT value ->> 'hash' FROM {{json_rows:hashes}})"),
         soci::use(rows_text, "hashes"));
    for (const auto& hash : registered) {
        found.insert(hash);
    }
    return found;
}

void register_contents(soci::session& session,
                       const std::vector<std::pair<std::string, int64_t>>& hashes_and_sizes) {
    if (hashes_and_sizes.empty()) {
        return;
    }
    Json rows = Json::array();
    for (const auto& [hash, size] : hashes_and_sizes) {
        rows.push_back({{"hash", hash}, {"size", size}});
    }
    const std::string rows_text = rows.dump();
    const int64_t now = now_ms();
    session << render_sql(dialect_of(session),
                          "INSERT INTO deployment_contents (hash, size, gzip_checked, "
                          "registered_at) SELECT value ->> 'hash', CAST(value ->> 'size' AS "
                          "BIGINT), 0, :now FROM {{json_rows:rows}} WHERE 1 = 1 "
                          "ON CONFLICT (hash) DO NOTHING"),
        soci::use(now, "now"), soci::use(rows_text, "rows");
}

std::vector<PendingCompression> contents_to_compress(soci::session& session,
                                                     int64_t deployment_id) {
    std::vector<PendingCompression> pending;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT c.hash, MIN(f.content_type) AS content_type, c.size "
                            "FROM deployment_contents c JOIN deployment_files f ON f.hash = c.hash "
                            "WHERE f.deployment_id = :id AND c.gzip_checked = 0 "
                            "GROUP BY c.hash, c.size",
         soci::use(deployment_id, "id"));
    for (const auto& row : rows) {
        RowReader r(row);
        pending.push_back({r.text("hash"), r.text("content_type"), r.int64("size")});
    }
    return pending;
}

void record_gzip_variant(soci::session& session, const std::string& hash,
                         const std::optional<std::string>& gzip_hash, int64_t gzip_size) {
    soci::indicator present = gzip_hash ? soci::i_ok : soci::i_null;
    std::string variant = gzip_hash.value_or("");
    session << "UPDATE deployment_contents SET gzip_checked = 1, gzip_hash = :variant, "
               "gzip_size = :size WHERE hash = :hash",
        soci::use(variant, present, "variant"), soci::use(gzip_size, present, "size"),
        soci::use(hash, "hash");
}

int64_t stored_bytes(soci::session& session, int64_t deployment_id) {
    int64_t bytes = 0;
    soci::indicator indicator = soci::i_ok;
    session << "SELECT SUM(c.size) FROM deployment_files f JOIN deployment_contents c ON "
               "c.hash = f.hash WHERE f.deployment_id = :id",
        soci::use(deployment_id, "id"), soci::into(bytes, indicator);
    return indicator == soci::i_null ? 0 : bytes;
}

}  // namespace loupe::deployments
