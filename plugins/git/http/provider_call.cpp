#include "http/provider_call.hpp"

#include <Poco/URI.h>

namespace loupe::git {
namespace {

/// The provider's own explanation when it sent one ({"message": ...} or {"error": ...}).
std::string explanation(const Json& body, const std::string& raw) {
    for (const char* key : {"message", "error"}) {
        if (body.is_object() && body.contains(key)) {
            const auto& value = body[key];
            return value.is_string() ? value.get<std::string>() : value.dump();
        }
    }
    return raw.substr(0, 200);
}

}  // namespace

CallResult failure(Outcome outcome, std::string message) {
    return CallResult{outcome, 0, std::move(message)};
}

ProviderReply call_provider(const OutgoingHttp& http, const OutgoingRequest& request,
                            Deadline deadline) {
    ProviderReply reply;
    OutgoingReply answer;
    try {
        answer = http.send(request, deadline);
    } catch (const TransportError& error) {
        reply.result =
            failure(Outcome::unavailable, request.method + " " + request.url + ": " + error.what());
        return reply;
    }
    reply.body = Json::parse(answer.body, nullptr, false);
    if (reply.body.is_discarded()) {
        reply.body = nullptr;
    }
    reply.result.http_status = answer.status;
    if (answer.status >= 200 && answer.status < 300) {
        return reply;
    }
    reply.result.outcome = answer.status == 404                          ? Outcome::not_found
                           : answer.status >= 400 && answer.status < 500 ? Outcome::rejected
                                                                         : Outcome::unavailable;
    reply.result.message = request.method + " " + request.url + " answered " +
                           std::to_string(answer.status) + ": " +
                           explanation(reply.body, answer.body);
    return reply;
}

std::string path_segment(const std::string& text) {
    std::string encoded;
    Poco::URI::encode(text, "/?#[]@!$&'()*+,;=%: ", encoded);
    return encoded;
}

}  // namespace loupe::git
