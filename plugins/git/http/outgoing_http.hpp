#pragma once
// Outgoing HTTP(S) to the git providers. HTTPS verifies the server's certificate chain and host
// name against the system CA store plus an optional CA file (private CAs of GitHub Enterprise
// Server or self-managed GitLab). Every call has a deadline: connecting, sending and each read
// get only the time left, and a body still arriving at the deadline is abandoned, so a provider
// that stalls cannot hold a request or a job longer than the budget.

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "settings/git_settings.hpp"

namespace Poco::Net {
class Context;
}

namespace loupe::git {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

inline Deadline deadline_in(int64_t milliseconds) {
    return Clock::now() + std::chrono::milliseconds(milliseconds);
}

struct OutgoingRequest {
    std::string method = "GET";
    std::string url;  ///< absolute http:// or https:// URL
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  ///< sent as application/json when not empty
};

struct OutgoingReply {
    int status = 0;
    std::string body;
};

/// The provider could not be reached or did not answer in time (no HTTP status to report).
class TransportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class OutgoingHttp {
public:
    /// Throws std::runtime_error when the CA file cannot be loaded.
    explicit OutgoingHttp(const GitSettings& settings);
    ~OutgoingHttp();
    OutgoingHttp(const OutgoingHttp&) = delete;
    OutgoingHttp& operator=(const OutgoingHttp&) = delete;

    /// Sends the request and reads the whole answer; throws TransportError on a network, TLS or
    /// certificate failure, a timeout, or an answer larger than `max_response_bytes`.
    OutgoingReply send(const OutgoingRequest& request, Deadline deadline) const;

private:
    struct ContextHolder;
    std::unique_ptr<ContextHolder> tls_;
    int64_t max_response_bytes_;
    std::string user_agent_;
};

}  // namespace loupe::git
