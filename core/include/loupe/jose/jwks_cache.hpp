#pragma once
// An issuer's key set (JWKS), fetched through the shared HTTP client and kept for a time to
// live; one caller refreshes an expired set while the others keep using it. A token signed with
// a `kid` the set lacks (the issuer rotated its keys) makes the set be fetched again at once,
// but at most once per `min_refetch_interval` however many such tokens arrive, and once for all
// the callers waiting (single flight): a flood of made-up kids cannot flood the issuer.
// THREADS: thread-safe.
//
//     jose::JwksCache keys(http, "https://token.actions.githubusercontent.com/.well-known/jwks");
//     const auto checked = keys.verify(token, expectations);   // JwtVerification

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "loupe/cache/single_flight_cache.hpp"
#include "loupe/export.hpp"
#include "loupe/http/http_client.hpp"
#include "loupe/jose/jwt.hpp"

namespace loupe::jose {

struct JwksCacheOptions {
    std::chrono::milliseconds ttl{std::chrono::hours(1)};
    std::chrono::milliseconds min_refetch_interval{std::chrono::minutes(1)};
    /// How each fetch is sent (timeouts, size cap, retries).
    HttpCallOptions http{.connect_timeout = std::chrono::seconds(5),
                         .io_timeout = std::chrono::seconds(10),
                         .max_response_bytes = 256 * 1024};
    /// The time (std::chrono::steady_clock::now when unset): tests inject theirs.
    std::function<std::chrono::steady_clock::time_point()> clock{};
};

/// The key set could not be fetched or read.
class LOUPE_API JwksUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~JwksUnavailable() override;
};

class LOUPE_API JwksCache {
public:
    /// `http` must outlive the cache.
    JwksCache(const HttpClient& http, std::string jwks_url, JwksCacheOptions options = {});

    /// The key set, fetched again first when it lacks `key_id` and the last such fetch is older
    /// than the minimum interval. Throws JwksUnavailable.
    std::shared_ptr<const JsonWebKeySet> keys_for(std::string_view key_id);
    /// verify_jwt against the issuer's keys; JwtFailure::keys_unavailable when there are none.
    JwtVerification verify(std::string_view token, const JwtExpectations& expect);

    /// Fetches made so far, for tests.
    int fetches() const;

private:
    std::shared_ptr<const JsonWebKeySet> fetch();

    const HttpClient& http_;
    std::string url_;
    JwksCacheOptions options_;
    SingleFlightCache<std::string, std::shared_ptr<const JsonWebKeySet>> cache_;
    mutable std::mutex mutex_;
    std::optional<std::chrono::steady_clock::time_point> last_refetch_;
    int fetches_ = 0;
};

}  // namespace loupe::jose
