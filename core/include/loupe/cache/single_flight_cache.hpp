#pragma once
// An in-memory cache that loads each missing key once however many threads want it at the same
// time (single flight): the first caller runs the loader outside the lock, the others wait for
// its result, or get its exception; a failure is never kept. Values are fresh for a time to
// live (per value, if it says so); an expired value is either gone (the default) or, with
// `serve_stale_while_refreshing`, refreshed by one caller while the others keep using it. A
// capacity bounds the total weight kept (one per entry unless a weight function says more):
// the entries stored longest ago go first, the newest always stays. The clock is injectable
// so tests never wait for real time.
// THREADS: thread-safe; loaders run on the caller's thread, never under the cache's lock.
//
//     SingleFlightCache<std::string, Principal> verified({.ttl = std::chrono::minutes(10),
//                                                         .capacity = 10'000});
//     const Principal principal = verified.get(token_hash, [&] { return verify(token); });

#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

namespace loupe {

template <typename Key, typename Value, typename Hash = std::hash<Key>>
class SingleFlightCache {
public:
    using Clock = std::chrono::steady_clock;
    using Loader = std::function<Value()>;

    struct Options {
        /// How long a stored value is fresh; zero: until it is evicted or forgotten.
        std::chrono::milliseconds ttl{0};
        /// A value's own time to live, overriding `ttl` (zero: fresh until evicted).
        std::function<std::chrono::milliseconds(const Value&)> ttl_of{};
        /// Keep serving an expired value while one caller loads its successor.
        bool serve_stale_while_refreshing = false;
        /// The most total weight kept; 0 keeps everything.
        std::size_t capacity = 0;
        /// A value's weight against the capacity (1 when unset).
        std::function<std::size_t(const Value&)> weight{};
        /// The time (std::chrono::steady_clock::now when unset).
        std::function<Clock::time_point()> clock{};
    };

    explicit SingleFlightCache(Options options) : options_(std::move(options)) {
        if (!options_.clock) {
            options_.clock = [] { return Clock::now(); };
        }
    }
    SingleFlightCache(const SingleFlightCache&) = delete;
    SingleFlightCache& operator=(const SingleFlightCache&) = delete;

    /// The value of `key`: a fresh one from the cache, else what `load` returns (run once for
    /// every concurrent caller of that key, its exception thrown to each of them).
    Value get(const Key& key, const Loader& load) {
        std::shared_future<Value> result;
        std::shared_ptr<std::packaged_task<Value()>> task;
        {
            std::lock_guard lock(mutex_);
            const auto now = options_.clock();
            if (const auto it = entries_.find(key); it != entries_.end()) {
                Entry& entry = it->second;
                if (is_fresh(entry, now) ||
                    (options_.serve_stale_while_refreshing && entry.refreshing)) {
                    return entry.value;
                }
                if (options_.serve_stale_while_refreshing) {
                    entry.refreshing = true;  // this caller refreshes; the others use it meanwhile
                    task = make_task(key, load);
                    result = task->get_future().share();
                } else {
                    erase(it);
                }
            }
            if (!task) {
                if (const auto pending = loading_.find(key); pending != loading_.end()) {
                    result = pending->second;
                } else {
                    task = make_task(key, load);
                    result = task->get_future().share();
                    loading_.emplace(key, result);
                }
            }
        }
        if (task) {
            (*task)();  // stores the value on success; the future holds the value or the error
            std::lock_guard lock(mutex_);
            loading_.erase(key);
            if (const auto it = entries_.find(key); it != entries_.end()) {
                it->second.refreshing = false;
            }
        }
        return result.get();
    }

    /// The fresh value of `key`, if the cache holds one (it never loads).
    std::optional<Value> find(const Key& key) {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (it == entries_.end()) {
            return std::nullopt;
        }
        if (!is_fresh(it->second, options_.clock())) {
            if (!options_.serve_stale_while_refreshing) {
                erase(it);
            }
            return std::nullopt;
        }
        return it->second.value;
    }

    /// Stores `value` for `key` as if it had just been loaded.
    void put(const Key& key, Value value) {
        std::lock_guard lock(mutex_);
        store(key, std::move(value));
    }

    void forget(const Key& key) {
        std::lock_guard lock(mutex_);
        if (const auto it = entries_.find(key); it != entries_.end()) {
            erase(it);
        }
    }

    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return entries_.size();
    }

private:
    struct Entry {
        Value value;
        std::optional<Clock::time_point> expires;
        typename std::list<Key>::iterator age;
        std::size_t weight = 1;
        bool refreshing = false;
    };
    using Entries = std::unordered_map<Key, Entry, Hash>;

    std::shared_ptr<std::packaged_task<Value()>> make_task(const Key& key, const Loader& load) {
        return std::make_shared<std::packaged_task<Value()>>([this, key, load] {
            Value value = load();
            std::lock_guard lock(mutex_);
            store(key, value);
            return value;
        });
    }

    bool is_fresh(const Entry& entry, Clock::time_point now) const {
        return !entry.expires || now < *entry.expires;
    }

    void store(const Key& key, Value value) {
        if (const auto it = entries_.find(key); it != entries_.end()) {
            erase(it);
        }
        const std::chrono::milliseconds ttl =
            options_.ttl_of ? options_.ttl_of(value) : options_.ttl;
        const std::size_t weight = options_.weight ? options_.weight(value) : 1;
        ages_.push_back(key);
        std::optional<Clock::time_point> expires;
        if (ttl.count() > 0) {
            expires = options_.clock() + ttl;
        }
        entries_.emplace(key, Entry{std::move(value), expires, std::prev(ages_.end()), weight});
        total_weight_ += weight;
        while (options_.capacity > 0 && total_weight_ > options_.capacity && ages_.size() > 1) {
            erase(entries_.find(ages_.front()));
        }
    }

    void erase(typename Entries::iterator it) {
        total_weight_ -= it->second.weight;
        ages_.erase(it->second.age);
        entries_.erase(it);
    }

    Options options_;
    mutable std::mutex mutex_;
    Entries entries_;
    std::list<Key> ages_;  ///< stored longest ago first
    std::unordered_map<Key, std::shared_future<Value>, Hash> loading_;
    std::size_t total_weight_ = 0;
};

}  // namespace loupe
