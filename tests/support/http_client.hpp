#pragma once
// A minimal blocking HTTP client for tests (Poco::Net), one connection per request.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace loupe::test {

struct HttpResult {
    int status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  ///< lower-case names; repeats joined by '\n'
    nlohmann::json json() const;
    std::string header(const std::string& lower_name) const;
};

struct HttpCall {
    std::string method = "GET";
    std::string url;  ///< absolute: http://127.0.0.1:PORT/path?query
    std::string body;
    std::string content_type = "application/json";
    std::optional<std::string> bearer;  ///< sets Authorization: Bearer <token>
    std::map<std::string, std::string> headers;
};

HttpResult http(const HttpCall& call);

/// Shorthands: JSON body and an optional bearer token.
HttpResult http_get(const std::string& url, std::optional<std::string> bearer = std::nullopt);
/// A JSON request; a null body is sent as no body at all (servers refuse a bare `null`).
HttpResult http_json(const std::string& method, const std::string& url, const nlohmann::json& body,
                     std::optional<std::string> bearer = std::nullopt);

}  // namespace loupe::test
