#include "tokenless/verified_tokens.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

VerifiedTokens::VerifiedTokens(int64_t lifetime_ms, std::size_t capacity)
    : lifetime_ms_(lifetime_ms), capacity_(capacity) {}

std::string VerifiedTokens::key_of(const std::string& token) {
    return crypto::sha256_hex(token);
}

std::optional<Principal> VerifiedTokens::find(const std::string& token) {
    const auto key = key_of(token);
    std::lock_guard lock(mutex_);
    auto entry = verified_.find(key);
    if (entry == verified_.end()) {
        return std::nullopt;
    }
    if (entry->second.expires_at <= now_ms()) {
        verified_.erase(entry);
        return std::nullopt;
    }
    return entry->second.principal;
}

void VerifiedTokens::forget(const std::string& token) {
    const auto key = key_of(token);
    std::lock_guard lock(mutex_);
    verified_.erase(key);
}

void VerifiedTokens::make_room(int64_t now) {
    if (verified_.size() < capacity_) {
        return;
    }
    std::erase_if(verified_, [now](const auto& entry) { return entry.second.expires_at <= now; });
    if (verified_.size() >= capacity_) {
        verified_.clear();  // a flood of distinct tokens: start over rather than grow
    }
}

Principal VerifiedTokens::verify_once(const std::string& token,
                                      const std::function<Principal()>& verify) {
    const auto key = key_of(token);
    std::promise<Principal> promise;
    std::shared_future<Principal> pending;
    {
        std::lock_guard lock(mutex_);
        auto running = in_flight_.find(key);
        if (running != in_flight_.end()) {
            pending = running->second;
        } else {
            in_flight_[key] = promise.get_future().share();
        }
    }
    if (pending.valid()) {
        return pending.get();
    }
    try {
        Principal principal = verify();
        std::lock_guard lock(mutex_);
        const auto now = now_ms();
        make_room(now);
        verified_[key] = Entry{principal, now + lifetime_ms_};
        in_flight_.erase(key);
        promise.set_value(principal);
        return principal;
    } catch (...) {
        {
            std::lock_guard lock(mutex_);
            in_flight_.erase(key);
        }
        promise.set_exception(std::current_exception());
        throw;
    }
}

}  // namespace loupe::git
