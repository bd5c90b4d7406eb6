#include "http/error_response.hpp"

namespace loupe {

Response error_response(int status, const std::string& message,
                        const std::vector<std::string>& details) {
    Json body = {{"error", message}};
    if (!details.empty()) {
        Json list = Json::array();
        for (const std::string& detail : details) {
            list.push_back({{"message", detail}});
        }
        body["details"] = std::move(list);
    }
    return Response::json(body, status);
}

}  // namespace loupe
