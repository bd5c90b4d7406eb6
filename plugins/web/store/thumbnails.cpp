#include "store/thumbnails.hpp"

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

}  // namespace loupe::web::thumbnails
