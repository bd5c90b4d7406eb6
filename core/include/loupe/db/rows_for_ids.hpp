#pragma once
// Reading the rows of many ids in one statement: `sql` is portable SQL in which
// `{{json_rows:ids}}` is the table of the ids (read them as `CAST(value AS BIGINT)`), e.g.
//   "SELECT id, name FROM tests WHERE id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}})"
// Every id stays a bound parameter and the statement text does not grow with the list.

#include <soci/soci.h>

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// Calls `each` for every row; does nothing (no statement) when `ids` is empty.
LOUPE_API void for_each_row_of_ids(soci::session& session, std::string_view sql,
                                   const std::vector<int64_t>& ids,
                                   const std::function<void(const soci::row&)>& each);

}  // namespace loupe
