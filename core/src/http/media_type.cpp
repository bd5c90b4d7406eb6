#include "http/media_type.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace loupe {

bool is_json_media_type(const std::optional<std::string>& content_type) {
    if (!content_type) {
        return false;
    }
    std::string type = content_type->substr(0, content_type->find(';'));
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto not_space = [](char c) { return c != ' ' && c != '\t'; };
    type.erase(type.begin(), std::find_if(type.begin(), type.end(), not_space));
    type.erase(std::find_if(type.rbegin(), type.rend(), not_space).base(), type.end());
    const std::string_view view(type);
    return view == "application/json" ||
           (view.starts_with("application/") && view.ends_with("+json"));
}

}  // namespace loupe
