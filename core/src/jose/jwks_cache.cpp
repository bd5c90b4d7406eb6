#include "loupe/jose/jwks_cache.hpp"

namespace loupe::jose {
namespace {

std::function<std::chrono::steady_clock::time_point()> clock_of(const JwksCacheOptions& options) {
    if (options.clock) {
        return options.clock;
    }
    return [] { return std::chrono::steady_clock::now(); };
}

}  // namespace

JwksUnavailable::~JwksUnavailable() = default;

JwksCache::JwksCache(const HttpClient& http, std::string jwks_url, JwksCacheOptions options)
    : http_(http),
      url_(std::move(jwks_url)),
      options_(std::move(options)),
      cache_({.ttl = options_.ttl,
              .serve_stale_while_refreshing = true,
              .clock = clock_of(options_)}) {
    options_.clock = clock_of(options_);
}

std::shared_ptr<const JsonWebKeySet> JwksCache::fetch() {
    {
        std::lock_guard lock(mutex_);
        ++fetches_;
    }
    HttpResponse response;
    try {
        response = http_.get_json(url_, {}, options_.http);
    } catch (const HttpTransportError& error) {
        throw JwksUnavailable("JWKS " + url_ + ": " + error.what());
    }
    if (!response.ok()) {
        throw JwksUnavailable("JWKS " + url_ + " answered " + std::to_string(response.status));
    }
    const auto document = response.json();
    if (!document) {
        throw JwksUnavailable("JWKS " + url_ + " answered no JSON");
    }
    try {
        return std::make_shared<const JsonWebKeySet>(JsonWebKeySet::from_json(*document));
    } catch (const std::invalid_argument& error) {
        throw JwksUnavailable("JWKS " + url_ + ": " + error.what());
    }
}

std::shared_ptr<const JsonWebKeySet> JwksCache::keys_for(std::string_view key_id) {
    const auto load = [this] { return fetch(); };
    auto keys = cache_.get(url_, load);
    if (key_id.empty() || keys->find(key_id) != nullptr) {
        return keys;
    }
    {
        // An unknown kid: the issuer may have rotated. The first caller past the interval
        // marks the refetch and drops the set; callers within the interval read the cache
        // again, so one that read the old set just before the drop joins the refetch (or
        // finds its result) instead of failing on the set it read first.
        std::lock_guard lock(mutex_);
        const auto now = options_.clock();
        if (!last_refetch_ || now - *last_refetch_ >= options_.min_refetch_interval) {
            last_refetch_ = now;
            cache_.forget(url_);
        }
    }
    return cache_.get(url_, load);
}

JwtVerification JwksCache::verify(std::string_view token, const JwtExpectations& expect) {
    const auto header = peek_jwt_header(token);
    if (!header) {
        return verify_jwt(token, JsonWebKeySet(), expect);  // reports what is malformed
    }
    const auto kid = header->find("kid");
    const std::string key_id =
        kid != header->end() && kid->is_string() ? kid->get<std::string>() : std::string();
    try {
        return verify_jwt(token, *keys_for(key_id), expect);
    } catch (const JwksUnavailable& error) {
        return JwtVerification::failed(JwtFailure::keys_unavailable, error.what());
    }
}

int JwksCache::fetches() const {
    std::lock_guard lock(mutex_);
    return fetches_;
}

}  // namespace loupe::jose
