#include "loupe/http/pagination.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace loupe {
namespace {

// JavaScript's Number(string): trims whitespace, "" → 0, anything unparsable → NaN.
double javascript_number(const std::string& text) {
    auto begin = text.find_first_not_of(" \t\n\r");
    if (begin == std::string::npos) {
        return 0;
    }
    auto end = text.find_last_not_of(" \t\n\r");
    std::string trimmed = text.substr(begin, end - begin + 1);
    char* stop = nullptr;
    double value = std::strtod(trimmed.c_str(), &stop);
    if (stop != trimmed.c_str() + trimmed.size() ||
        trimmed.find_first_of("xXpP") != std::string::npos) {
        return std::nan("");
    }
    return value;
}

double read_number(const Request& request, const char* name, double fallback, double max,
                   Validation& validation) {
    if (request.query_count(name) > 1) {
        validation.add(name, "Invalid input: expected string, received array");
        return fallback;
    }
    auto raw = request.query(name);
    if (!raw) {
        return fallback;
    }
    double value = javascript_number(*raw);
    if (std::isnan(value)) {
        validation.add("", "Invalid input: expected number, received NaN");
        return fallback;
    }
    if (value < 1) {
        validation.add("", "Too small: expected number to be >=1");
        return fallback;
    }
    if (max > 0 && value > max) {
        validation.add("",
                       "Too big: expected number to be <=" + std::to_string(static_cast<int>(max)));
        return fallback;
    }
    return value;
}

Json number_json(double value) {
    if (value == std::floor(value) && std::abs(value) < 9e15) {
        return static_cast<int64_t>(value);
    }
    return value;
}

}  // namespace

Pagination parse_pagination(const Request& request, Validation& validation) {
    Pagination pagination;
    pagination.per_page = read_number(request, "perPage", 30, 100, validation);
    pagination.page = read_number(request, "page", 1, 0, validation);
    return pagination;
}

Json page_envelope(const Pagination& pagination, int64_t total, Json results) {
    return Json{{"pageInfo",
                 {{"total", total},
                  {"page", number_json(pagination.page)},
                  {"perPage", number_json(pagination.per_page)}}},
                {"results", std::move(results)}};
}

}  // namespace loupe
