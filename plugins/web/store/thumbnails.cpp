#include "store/thumbnails.hpp"

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::web::thumbnails {

std::optional<std::string> find(soci::session& session, const std::string& source_key,
                                const std::string& variant) {
    std::string key;
    soci::indicator indicator = soci::i_null;
    session << "SELECT thumbnail_key FROM web_thumbnails WHERE source_key = :source AND "
               "variant = :variant",
        soci::use(source_key), soci::use(variant), soci::into(key, indicator);
    if (!session.got_data() || indicator != soci::i_ok) {
        return std::nullopt;
    }
    return key;
}

void record(soci::session& session, const std::string& source_key, const std::string& variant,
            const std::string& thumbnail_key, int64_t now) {
    session << "INSERT INTO web_thumbnails (source_key, variant, thumbnail_key, created_at) "
               "VALUES (:source, :variant, :thumbnail, :now) ON CONFLICT (source_key, variant) "
               "DO NOTHING",
        soci::use(source_key), soci::use(variant), soci::use(thumbnail_key), soci::use(now);
}

std::map<std::string, std::string> sources_of(soci::session& session,
                                              const std::vector<std::string>& keys) {
    std::map<std::string, std::string> sources;
    if (keys.empty()) {
        return sources;
    }
    Json rows_of_keys = Json::array();
    for (const auto& key : keys) {
        rows_of_keys.push_back({{"k", key}});
    }
    const std::string list = rows_of_keys.dump();
    soci::rowset<soci::row> rows =
        (session.prepare << render_sql(dialect_of(session),
                                       "SELECT thumbnail_key, source_key FROM web_thumbnails "
                                       "WHERE thumbnail_key IN (SELECT value ->> 'k' FROM "
                                       "{{json_rows:keys}})"),
         soci::use(list, "keys"));
    for (const auto& row : rows) {
        const RowReader read(row);
        sources.emplace(read.text("thumbnail_key"), read.text("source_key"));
    }
    return sources;
}

}  // namespace loupe::web::thumbnails
