#pragma once
// One provider call, classified: the answer's status becomes an Outcome (2xx ok, 404 not
// found, other 4xx rejected, anything else or no answer unavailable) and its body is parsed as
// JSON when it is JSON. Never throws for what the provider does.

#include <string>

#include "http/outgoing_http.hpp"
#include "loupe/git/git_providers.hpp"

namespace loupe::git {

ProviderReply call_provider(const OutgoingHttp& http, const OutgoingRequest& request,
                            Deadline deadline);

/// A failed result without a call (misconfiguration, invalid input).
CallResult failure(Outcome outcome, std::string message);

/// `text` percent-encoded as one path segment ("group/app" → "group%2Fapp").
std::string path_segment(const std::string& text);

}  // namespace loupe::git
