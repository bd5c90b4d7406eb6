#pragma once
// Argos pagination (reference §1.4): `perPage` (default 30, 1..100) and `page` (default 1,
// >= 1) arrive as strings and are coerced to numbers; failures are validation issues with an
// empty path (" is Too big: expected number to be <=100"). Lists answer
// {"pageInfo": {"total", "page", "perPage"}, "results": [...]}.

#include <cstdint>

#include "loupe/http/request.hpp"
#include "loupe/json.hpp"

namespace loupe {

struct Pagination {
    double page = 1;
    double per_page = 30;
    int64_t limit() const { return static_cast<int64_t>(per_page); }
    int64_t offset() const { return static_cast<int64_t>(page - 1) * limit(); }
};

/// Reads `page` and `perPage` from the query, adding issues to `validation`.
LOUPE_API Pagination parse_pagination(const Request& request, Validation& validation);
/// The page envelope around `results`.
LOUPE_API Json page_envelope(const Pagination& pagination, int64_t total, Json results);

}  // namespace loupe
