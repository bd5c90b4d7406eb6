#include "store/blob_references.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {

std::set<std::string> referenced_blob_keys(soci::session& session,
                                           const std::vector<std::string>& keys) {
    std::set<std::string> referenced;
    if (keys.empty()) {
        return referenced;
    }
    Json rows = Json::array();
    for (const auto& key : keys) {
        rows.push_back({{"key", key}});
    }
    const std::string rows_text = rows.dump();
    soci::rowset<std::string> found =
        (session.prepare << render_sql(
             dialect_of(session),
             "SELECT blob_key FROM screenshots WHERE blob_key IN "
             "(SELECT value ->> 'key' FROM {{json_rows:screenshots}}) "
             "UNION SELECT pw_trace_key FROM screenshots WHERE pw_trace_key IN "
             "(SELECT value ->> 'key' FROM {{json_rows:traces}}) "
             "UNION SELECT mask_key FROM screenshot_diffs WHERE mask_key IN "
             "(SELECT value ->> 'key' FROM {{json_rows:masks}})"),
         soci::use(rows_text, "screenshots"), soci::use(rows_text, "traces"),
         soci::use(rows_text, "masks"));
    for (const auto& key : found) {
        referenced.insert(key);
    }
    return referenced;
}

}  // namespace loupe::builds
