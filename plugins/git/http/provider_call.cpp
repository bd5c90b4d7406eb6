#include "http/provider_call.hpp"

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

HttpClient client_for(const GitSettings& settings) {
    try {
        return HttpClient(HttpClientSettings{.ca_file = settings.ca_file});
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string("plugins.git.ca_file: ") + error.what());
    }
}

}  // namespace

ProviderHttp::ProviderHttp(const GitSettings& settings)
    : client_(client_for(settings)),
      max_response_bytes_(static_cast<std::size_t>(settings.max_response_bytes)),
      timeout_(settings.timeout_ms) {}

CallResult failure(Outcome outcome, std::string message) {
    return CallResult{outcome, 0, std::move(message)};
}

ProviderReply ProviderHttp::call(const ProviderRequest& request, Deadline deadline) const {
    HttpHeaders headers = request.headers;
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
        request.method == "PATCH") {
        headers.emplace_back("Content-Type", "application/json");
    }
    ProviderReply reply;
    HttpResponse answer;
    try {
        answer = client_.send(HttpRequest{request.method, request.url, headers, request.body},
                              {.connect_timeout = timeout_,
                               .io_timeout = timeout_,
                               .deadline = deadline,
                               .max_response_bytes = max_response_bytes_,
                               .max_attempts = 1});
    } catch (const HttpTransportError& error) {
        reply.result = failure(Outcome::unavailable, error.what());
        return reply;
    }
    reply.body = answer.json().value_or(nullptr);
    reply.result.http_status = answer.status;
    if (answer.ok()) {
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

}  // namespace loupe::git
