#include "support/http_client.hpp"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "support/in_process_server.hpp"

namespace loupe::test {

nlohmann::json HttpResult::json() const {
    return nlohmann::json::parse(body);
}

std::string HttpResult::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

HttpResult http(const HttpCall& call) {
    if (auto answer = answer_in_process(call)) {
        return std::move(*answer);
    }
    Poco::URI uri(call.url);
    Poco::Net::HTTPClientSession session(uri.getHost(), uri.getPort());
    session.setTimeout(Poco::Timespan(60, 0));
    Poco::Net::HTTPRequest request(call.method, uri.getPathAndQuery(),
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    if (call.bearer) {
        request.set("Authorization", "Bearer " + *call.bearer);
    }
    for (const auto& [name, value] : call.headers) {
        request.set(name, value);
    }
    if (!call.body.empty() || call.method == "POST" || call.method == "PUT" ||
        call.method == "PATCH") {
        request.setContentType(call.content_type);
        request.setContentLength(static_cast<std::streamsize>(call.body.size()));
    }
    std::ostream& out = session.sendRequest(request);
    out << call.body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    HttpResult result;
    result.status = static_cast<int>(response.getStatus());
    std::ostringstream body;
    Poco::StreamCopier::copyStream(in, body);
    result.body = body.str();
    for (const auto& [name, value] : response) {
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        // A header sent several times (Set-Cookie) keeps every value, one per line.
        auto [it, inserted] = result.headers.emplace(lower, value);
        if (!inserted) {
            it->second += "\n" + value;
        }
    }
    return result;
}

HttpResult http_get(const std::string& url, std::optional<std::string> bearer) {
    return http(HttpCall{"GET", url, "", "application/json", std::move(bearer), {}});
}

HttpResult http_json(const std::string& method, const std::string& url, const nlohmann::json& body,
                     std::optional<std::string> bearer) {
    return http(HttpCall{
        method, url, body.is_null() ? "" : body.dump(), "application/json", std::move(bearer), {}});
}

}  // namespace loupe::test
