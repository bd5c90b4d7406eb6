// The issuer's key set over HTTP: kept for its time to live, fetched again when a token names a
// key it lacks (rotation), at most once per interval, once for concurrent callers.
#include "loupe/jose/jwks_cache.hpp"

#include <doctest/doctest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "support/local_http_server.hpp"

namespace loupe::jose {
namespace {

using namespace std::chrono_literals;
using test::LocalReply;
using test::LocalRequest;

constexpr int64_t cache_now = 1'700'000'000;

/// An issuer whose published keys the test changes; its clock is the test's.
struct RotatingIssuer {
    std::mutex mutex;
    Json published = Json{{"keys", Json::array()}};
    int status = 200;
    test::LocalHttpServer server{[this](const LocalRequest&) {
        std::lock_guard lock(mutex);
        std::this_thread::sleep_for(20ms);  // long enough for concurrent callers to overlap
        return LocalReply{status, {{"Content-Type", "application/json"}}, published.dump()};
    }};
    std::chrono::steady_clock::time_point clock{};

    void publish(const std::vector<Json>& keys) {
        std::lock_guard lock(mutex);
        published = Json{{"keys", keys}};
    }
    JwksCacheOptions options() {
        return {.ttl = 1h, .min_refetch_interval = 1min, .clock = [this] { return clock; }};
    }
};

JwtExpectations cache_expectations() {
    return {.issuer = "https://issuer.example", .audiences = {"loupe"}, .now_s = [] {
                return cache_now;
            }};
}

std::string token_of(const SigningKey& key, const std::string& kid) {
    return sign_jwt({{"iss", "https://issuer.example"}, {"aud", "loupe"}, {"exp", cache_now + 60}},
                    key, kid);
}

TEST_CASE("keys are fetched once, kept, and fetched again after their time to live") {
    RotatingIssuer issuer;
    const auto key = SigningKey::generate(Algorithm::es256);
    issuer.publish({key.public_jwk("one")});
    const HttpClient http;
    JwksCache cache(http, issuer.server.url() + "/jwks", issuer.options());
    CHECK(cache.verify(token_of(key, "one"), cache_expectations()));
    CHECK(cache.verify(token_of(key, "one"), cache_expectations()));
    CHECK(cache.fetches() == 1);
    issuer.clock += 61min;
    CHECK(cache.verify(token_of(key, "one"), cache_expectations()));
    CHECK(cache.fetches() == 2);
}

TEST_CASE("a rotated key is found by fetching again, at most once per interval") {
    RotatingIssuer issuer;
    const auto old_key = SigningKey::generate(Algorithm::rs256);
    const auto new_key = SigningKey::generate(Algorithm::rs256);
    issuer.publish({old_key.public_jwk("2024")});
    const HttpClient http;
    JwksCache cache(http, issuer.server.url() + "/jwks", issuer.options());
    CHECK(cache.verify(token_of(old_key, "2024"), cache_expectations()));

    issuer.publish({old_key.public_jwk("2024"), new_key.public_jwk("2025")});
    CHECK(cache.verify(token_of(new_key, "2025"), cache_expectations()));
    CHECK(cache.fetches() == 2);

    // Made-up kids: no fetch within the interval, so the issuer is not flooded.
    const auto stranger = SigningKey::generate(Algorithm::rs256);
    for (int i = 0; i < 5; ++i) {
        const auto result =
            cache.verify(token_of(stranger, "fake-" + std::to_string(i)), cache_expectations());
        CHECK(result.error().failure == JwtFailure::unknown_key);
    }
    CHECK(cache.fetches() == 2);  // the rotation's fetch was less than a minute ago
    issuer.clock += 2min;
    CHECK(cache.verify(token_of(stranger, "fake-9"), cache_expectations()).error().failure ==
          JwtFailure::unknown_key);
    CHECK(cache.fetches() == 3);
    CHECK(cache.verify(token_of(new_key, "2025"), cache_expectations()));
}

TEST_CASE("concurrent tokens with a new kid share one fetch") {
    RotatingIssuer issuer;
    const auto first = SigningKey::generate(Algorithm::es256);
    const auto second = SigningKey::generate(Algorithm::es256);
    issuer.publish({first.public_jwk("a")});
    const HttpClient http;
    JwksCache cache(http, issuer.server.url() + "/jwks", issuer.options());
    CHECK(cache.verify(token_of(first, "a"), cache_expectations()));
    issuer.publish({first.public_jwk("a"), second.public_jwk("b")});
    std::vector<std::thread> threads;
    std::atomic<int> verified{0};
    for (int i = 0; i < 6; ++i) {
        threads.emplace_back([&] {
            if (cache.verify(token_of(second, "b"), cache_expectations())) {
                ++verified;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    CHECK(verified == 6);
    CHECK(cache.fetches() == 2);
}

TEST_CASE("an issuer that cannot be reached gives keys_unavailable, not an exception") {
    RotatingIssuer issuer;
    issuer.status = 500;
    const HttpClient http;
    auto options = issuer.options();
    options.http.max_attempts = 1;
    JwksCache cache(http, issuer.server.url() + "/jwks", options);
    const auto key = SigningKey::generate(Algorithm::es256);
    const auto result = cache.verify(token_of(key, "one"), cache_expectations());
    CHECK(result.error().failure == JwtFailure::keys_unavailable);
    CHECK(result.error().message.find("answered 500") != std::string::npos);
    CHECK(cache.verify("not a token", cache_expectations()).error().failure ==
          JwtFailure::malformed);
}

}  // namespace
}  // namespace loupe::jose
