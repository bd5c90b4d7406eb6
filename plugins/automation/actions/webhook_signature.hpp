#pragma once
// Standard Webhooks signing (www.standardwebhooks.com): a secret "whsec_<base64 of 24 random
// bytes>"; each request carries `webhook-id` (the delivery's idempotency key, the same on every
// retry), `webhook-timestamp` (seconds since the epoch) and `webhook-signature`
// "v1,<base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>")>", the key being the secret's
// base64-decoded bytes.

#include <cstdint>
#include <string>

namespace loupe::automation {

/// A new signing secret.
std::string new_webhook_secret();

/// "v1,<base64 signature>"; throws std::invalid_argument for a secret that is not "whsec_…".
std::string webhook_signature(const std::string& secret, const std::string& id,
                              int64_t timestamp_seconds, const std::string& body);

}  // namespace loupe::automation
