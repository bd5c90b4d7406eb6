#include "http/media_type.hpp"

#include <string_view>

#include "loupe/text/strings.hpp"

namespace loupe {

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

}  // namespace loupe
