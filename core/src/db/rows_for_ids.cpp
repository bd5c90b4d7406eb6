#include "loupe/db/rows_for_ids.hpp"

#include "loupe/db/dialect.hpp"
#include "loupe/json.hpp"

namespace loupe {

void for_each_row_of_ids(soci::session& session, std::string_view sql,
                         const std::vector<int64_t>& ids,
                         const std::function<void(const soci::row&)>& each) {
    if (ids.empty()) {
        return;
    }
    const std::string ids_text = Json(ids).dump();
    soci::rowset<soci::row> rows =
        (session.prepare << render_sql(dialect_of(session), sql), soci::use(ids_text, "ids"));
    for (const auto& row : rows) {
        each(row);
    }
}

}  // namespace loupe
