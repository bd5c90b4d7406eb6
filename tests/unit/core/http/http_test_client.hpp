#pragma once
// A small HTTP client for the server tests (Poco Net). Unlike support/http_client.hpp it keeps
// its connection alive between requests and can send chunked bodies, so tests can check what
// happens to a connection after an answer.

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "loupe/json.hpp"

namespace loupe::http_test {

struct Reply {
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

struct Call {
    std::string method = "GET";
    std::string target = "/";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    bool chunked = false;
};

class Client {
public:
    explicit Client(int port, int timeout_s = 10)
        : session_("127.0.0.1", static_cast<Poco::UInt16>(port)) {
        session_.setKeepAlive(true);
        session_.setTimeout(Poco::Timespan(timeout_s, 0));
    }

    Reply send(const Call& call) {
        Poco::Net::HTTPRequest request(call.method, call.target, Poco::Net::HTTPMessage::HTTP_1_1);
        request.setKeepAlive(true);
        for (const auto& [name, value] : call.headers) {
            request.set(name, value);
        }
        if (call.chunked) {
            request.setChunkedTransferEncoding(true);
        } else if (!call.body.empty() || call.method == "POST" || call.method == "PUT") {
            request.setContentLength(static_cast<std::streamsize>(call.body.size()));
        }
        std::ostream& out = session_.sendRequest(request);
        out << call.body;
        Poco::Net::HTTPResponse response;
        std::istream& in = session_.receiveResponse(response);
        Reply result;
        result.status = static_cast<int>(response.getStatus());
        for (const auto& [name, value] : response) {
            result.headers.emplace_back(name, value);
        }
        if (call.method != "HEAD") {
            std::ostringstream body;
            Poco::StreamCopier::copyStream(in, body);
            result.body = body.str();
        }
        return result;
    }

    Reply get(const std::string& target) { return send({"GET", target, {}, {}, false}); }
    Reply post(const std::string& target, const std::string& body) {
        return send({"POST", target, body, {{"Content-Type", "application/json"}}, false});
    }

    Poco::Net::HTTPClientSession& session() { return session_; }

private:
    Poco::Net::HTTPClientSession session_;
};

}  // namespace loupe::http_test
