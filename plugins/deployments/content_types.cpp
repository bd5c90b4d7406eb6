#include "content_types.hpp"

namespace loupe::deployments {

bool is_compressible_type(const std::string& content_type) {
    std::string type = content_type.substr(0, content_type.find(';'));
    while (!type.empty() && type.back() == ' ') {
        type.pop_back();
    }
    return type.starts_with("text/") || type.ends_with("javascript") || type.ends_with("json") ||
           type.ends_with("xml") || type == "image/svg+xml" || type == "application/wasm" ||
           type == "image/x-icon" || type == "image/vnd.microsoft.icon" || type == "font/ttf" ||
           type == "font/otf";
}

}  // namespace loupe::deployments
