#include "http/media_type.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

std::string lower_trimmed(std::string_view text) {
    const auto not_space = [](char c) { return c != ' ' && c != '\t'; };
    const auto begin = std::find_if(text.begin(), text.end(), not_space);
    const auto end = std::find_if(text.rbegin(), text.rend(), not_space).base();
    std::string result(begin, begin < end ? end : begin);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return result;
}

/// Whether a media range's parameters ("; q=0.5; level=1") refuse it: q=0, q=0.0, q=0.000.
bool refused(std::string_view parameters) {
    while (!parameters.empty()) {
        const auto semicolon = parameters.find(';');
        const std::string parameter = lower_trimmed(parameters.substr(0, semicolon));
        if (parameter.starts_with("q=")) {
            const std::string value = parameter.substr(2);
            return !value.empty() && value.find_first_not_of("0.") == std::string::npos;
        }
        parameters = semicolon == std::string_view::npos ? std::string_view()
                                                         : parameters.substr(semicolon + 1);
    }
    return false;
}

}  // namespace

bool asks_for_html(const std::optional<std::string>& accept) {
    if (!accept) {
        return false;
    }
    std::string_view ranges(*accept);
    while (!ranges.empty()) {
        const auto comma = ranges.find(',');
        const std::string_view range = ranges.substr(0, comma);
        const auto semicolon = range.find(';');
        const std::string type = lower_trimmed(range.substr(0, semicolon));
        const bool html = type == "text/html" || type == "application/xhtml+xml";
        if (html && !refused(semicolon == std::string_view::npos ? std::string_view()
                                                                 : range.substr(semicolon + 1))) {
            return true;
        }
        ranges = comma == std::string_view::npos ? std::string_view() : ranges.substr(comma + 1);
    }
    return false;
}

bool is_json_media_type(const std::optional<std::string>& content_type) {
    if (!content_type) {
        return false;
    }
    const std::string type = to_lower(
        trim(std::string_view(*content_type).substr(0, content_type->find(';')), http_whitespace));
    const std::string_view view(type);
    return view == "application/json" ||
           (view.starts_with("application/") && view.ends_with("+json"));
}

bool is_form_media_type(const std::optional<std::string>& content_type) {
    if (!content_type) {
        return false;
    }
    return to_lower(trim(std::string_view(*content_type).substr(0, content_type->find(';')),
                         http_whitespace)) == "application/x-www-form-urlencoded";
}

}  // namespace loupe
