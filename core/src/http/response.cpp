#include "loupe/http/response.hpp"

namespace loupe {

Response Response::json(const Json& value, int status) {
    Response response;
    response.status = status;
    response.headers.emplace_back("Content-Type", "application/json; charset=utf-8");
    // `replace` keeps a handler's invalid UTF-8 from turning a good answer into a 500.
    response.body = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    return response;
}

Response Response::text(std::string body, std::string content_type, int status) {
    Response response;
    response.status = status;
    response.headers.emplace_back("Content-Type", std::move(content_type));
    response.body = std::move(body);
    return response;
}

Response Response::file(std::string path, std::string content_type) {
    Response response;
    response.headers.emplace_back("Content-Type", std::move(content_type));
    response.file_path = std::move(path);
    return response;
}

Response Response::no_content() {
    Response response;
    response.status = 204;
    return response;
}

Response& Response::with_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
}

}  // namespace loupe
