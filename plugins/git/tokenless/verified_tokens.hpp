#pragma once
// Tokenless bearers verified recently, so the many requests of one CI run (GET /project,
// POST /builds, PUT /builds/{id}, ...) ask GitHub or GitLab once, not once each. Entries are
// keyed by the token's SHA-256 and live `lifetime_ms`. Concurrent requests with a token not yet
// verified wait for one verification instead of each starting their own. Failures are not kept.

#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "loupe/auth/principal.hpp"

namespace loupe::git {

class VerifiedTokens {
public:
    explicit VerifiedTokens(int64_t lifetime_ms, std::size_t capacity = 10'000);

    std::optional<Principal> find(const std::string& token);
    void forget(const std::string& token);
    /// Runs `verify` (once for all concurrent callers with this token) and keeps its principal.
    /// Its exception reaches every caller that waited for it.
    Principal verify_once(const std::string& token, const std::function<Principal()>& verify);

private:
    struct Entry {
        Principal principal;
        int64_t expires_at = 0;
    };
    static std::string key_of(const std::string& token);
    void make_room(int64_t now);

    int64_t lifetime_ms_;
    std::size_t capacity_;
    std::mutex mutex_;
    std::map<std::string, Entry> verified_;
    std::map<std::string, std::shared_future<Principal>> in_flight_;
};

}  // namespace loupe::git
