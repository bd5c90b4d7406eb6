#pragma once
// Calls to the git providers over the shared HTTP client: each one within a deadline (request
// paths share one budget), sent once (the commit-status jobs retry on their own), its answer
// capped at plugins.git.max_response_bytes. The answer's status becomes an Outcome (2xx ok,
// 404 not found, other 4xx rejected, anything else or no answer unavailable) and its body is
// parsed as JSON when it is JSON. Never throws for what the provider does.

#include <string>

#include "loupe/git/git_providers.hpp"
#include "loupe/http/http_client.hpp"
#include "settings/git_settings.hpp"

namespace loupe::git {

using Clock = HttpClock;
using Deadline = HttpClock::time_point;

inline Deadline deadline_in(int64_t milliseconds) {
    return loupe::deadline_in(std::chrono::milliseconds(milliseconds));
}

struct ProviderRequest {
    std::string method = "GET";
    std::string url;  ///< absolute; the path is sent as written
    HttpHeaders headers;
    std::string body;  ///< sent as application/json
};

class ProviderHttp {
public:
    /// Throws std::runtime_error naming plugins.git.ca_file when it cannot be loaded.
    explicit ProviderHttp(const GitSettings& settings);

    ProviderReply call(const ProviderRequest& request, Deadline deadline) const;
    /// The client itself (plugins.git.ca_file trusted), for calls that are not provider calls.
    const HttpClient& client() const { return client_; }

private:
    HttpClient client_;
    std::size_t max_response_bytes_;
    std::chrono::milliseconds timeout_;
};

/// A failed result without a call (misconfiguration, invalid input).
CallResult failure(Outcome outcome, std::string message);

}  // namespace loupe::git
