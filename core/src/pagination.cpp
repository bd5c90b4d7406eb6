#include "loupe/http/pagination.hpp"

#include <string>

#include "loupe/http/integer_text.hpp"

namespace loupe {
namespace {

constexpr int64_t max_per_page = 100;
constexpr int64_t max_page = 1'000'000'000;

int64_t read_count(const Request& request, const char* name, int64_t fallback, int64_t max,
                   Validation& validation) {
    if (request.query_count(name) > 1) {
        validation.add(name, "Invalid input: expected string, received array");
        return fallback;
    }
    const auto raw = request.query(name);
    if (!raw) {
        return fallback;
    }
    return read_positive_integer(*raw, max, validation).value_or(fallback);
}

}  // namespace

Pagination parse_pagination(const Request& request, Validation& validation) {
    Pagination pagination;
    pagination.per_page = read_count(request, "perPage", 30, max_per_page, validation);
    pagination.page = read_count(request, "page", 1, max_page, validation);
    return pagination;
}

Json page_envelope(const Pagination& pagination, int64_t total, Json results) {
    return Json{{"pageInfo",
                 {{"total", total}, {"page", pagination.page}, {"perPage", pagination.per_page}}},
                {"results", std::move(results)}};
}

}  // namespace loupe
