#pragma once
// One HTTP exchange per call (Poco Net) for the blob route tests.

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "loupe/json.hpp"

namespace loupe::blob_test {

struct HttpAnswer {
    int status = 0;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;

    std::optional<std::string> header(const std::string& name) const {
        for (const auto& [key, value] : headers) {
            if (Poco::icompare(key, name) == 0) {
                return value;
            }
        }
        return std::nullopt;
    }
    Json json() const { return Json::parse(body); }
};

struct HttpCall {
    std::string method = "GET";
    std::string target = "/";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    bool chunked = false;
};

inline HttpAnswer http_send(int port, const HttpCall& call) {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(30, 0));
    Poco::Net::HTTPRequest request(call.method, call.target, Poco::Net::HTTPMessage::HTTP_1_1);
    for (const auto& [name, value] : call.headers) {
        request.set(name, value);
    }
    if (call.chunked) {
        request.setChunkedTransferEncoding(true);
    } else if (call.method == "PUT" || call.method == "POST") {
        request.setContentLength(static_cast<std::streamsize>(call.body.size()));
    }
    session.sendRequest(request) << call.body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    HttpAnswer answer;
    answer.status = static_cast<int>(response.getStatus());
    for (const auto& [name, value] : response) {
        answer.headers.emplace_back(name, value);
    }
    if (call.method != "HEAD") {
        std::ostringstream body;
        Poco::StreamCopier::copyStream(in, body);
        answer.body = body.str();
    }
    return answer;
}

inline HttpAnswer http_get(int port, const std::string& target) {
    return http_send(port, {"GET", target, {}, {}, false});
}

}  // namespace loupe::blob_test
