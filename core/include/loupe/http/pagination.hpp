#pragma once
// Argos pagination: `perPage` (default 30, 1..100) and `page` (default 1, 1..10^9) arrive as
// strings of decimal digits (Argos also takes "1.5" or "1e1"; Loupe refuses anything that is
// not a plain integer, see integer_text.hpp); failures are validation issues with an empty
// path (" is Too big: expected number to be <=100"). Lists answer
// {"pageInfo": {"total", "page", "perPage"}, "results": [...]}.

#include <cstdint>

#include "loupe/http/request.hpp"
#include "loupe/json.hpp"

namespace loupe {

struct Pagination {
    int64_t page = 1;
    int64_t per_page = 30;
    int64_t limit() const { return per_page; }
    int64_t offset() const { return (page - 1) * per_page; }
};

/// Reads `page` and `perPage` from the query, adding issues to `validation`.
LOUPE_API Pagination parse_pagination(const Request& request, Validation& validation);
/// The page envelope around `results`.
LOUPE_API Json page_envelope(const Pagination& pagination, int64_t total, Json results);

}  // namespace loupe
