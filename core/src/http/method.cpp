#include "loupe/http/method.hpp"

#include <array>
#include <utility>

namespace loupe {
namespace {

constexpr std::array<std::pair<Method, std::string_view>, 7> method_names{{
    {Method::get, "GET"},
    {Method::head, "HEAD"},
    {Method::post, "POST"},
    {Method::put, "PUT"},
    {Method::patch, "PATCH"},
    {Method::del, "DELETE"},
    {Method::options, "OPTIONS"},
}};

}  // namespace

std::string_view to_string(Method method) {
    for (const auto& [value, name] : method_names) {
        if (value == method) {
            return name;
        }
    }
    return "UNKNOWN";
}

std::optional<Method> parse_method(std::string_view text) {
    for (const auto& [value, name] : method_names) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace loupe
