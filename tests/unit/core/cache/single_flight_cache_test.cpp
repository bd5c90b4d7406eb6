#include "loupe/cache/single_flight_cache.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace loupe {
namespace {

using namespace std::chrono_literals;
using Cache = SingleFlightCache<std::string, int>;

/// A clock the test moves by hand.
struct ManualClock {
    Cache::Clock::time_point now{};
    std::function<Cache::Clock::time_point()> function() {
        return [this] { return now; };
    }
};

/// Holds a loader until the test opens it, and counts how many callers are waiting.
struct Gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;
    int entered = 0;

    void enter_and_wait() {
        std::unique_lock lock(mutex);
        ++entered;
        changed.notify_all();
        changed.wait(lock, [this] { return open; });
    }
    void wait_for_entries(int count) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return entered >= count; });
    }
    void release() {
        std::lock_guard lock(mutex);
        open = true;
        changed.notify_all();
    }
};

TEST_CASE("concurrent callers of a missing key share one load") {
    Cache cache({});
    Gate gate;
    std::atomic<int> loads{0};
    std::vector<std::thread> threads;
    std::vector<int> results(8, 0);
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([&, i] {
            results[i] = cache.get("key", [&] {
                ++loads;
                gate.enter_and_wait();
                return 42;
            });
        });
    }
    gate.wait_for_entries(1);
    // The other seven are waiting for the one load (or have not reached get() yet; either way
    // they find it in flight or stored, never load again).
    gate.release();
    for (auto& thread : threads) {
        thread.join();
    }
    CHECK(loads == 1);
    CHECK(results == std::vector<int>(8, 42));
    CHECK(cache.find("key") == 42);
}

TEST_CASE("a failed load reaches every waiting caller and is not kept") {
    Cache cache({});
    Gate gate;
    std::atomic<int> failures{0};
    std::thread first([&] {
        try {
            cache.get("key", [&]() -> int {
                gate.enter_and_wait();
                throw std::runtime_error("provider down");
            });
        } catch (const std::runtime_error&) {
            ++failures;
        }
    });
    gate.wait_for_entries(1);
    std::thread second([&] {
        try {
            cache.get("key", [] { return 1; });  // joins the load in flight, or loads anew
        } catch (const std::runtime_error& error) {
            CHECK(std::string(error.what()) == "provider down");
            ++failures;
        }
    });
    gate.release();
    first.join();
    second.join();
    CHECK(failures >= 1);
    CHECK(cache.get("key", [] { return 7; }) == (failures == 2 ? 7 : 1));
}

TEST_CASE("values expire after their time to live on the injected clock") {
    ManualClock clock;
    Cache cache({.ttl = 10s, .clock = clock.function()});
    int loads = 0;
    const auto load = [&] { return ++loads; };
    CHECK(cache.get("a", load) == 1);
    clock.now += 9s;
    CHECK(cache.get("a", load) == 1);
    clock.now += 1s;
    CHECK_FALSE(cache.find("a").has_value());
    CHECK(cache.get("a", load) == 2);
    cache.forget("a");
    CHECK(cache.get("a", load) == 3);
}

TEST_CASE("a value's own time to live overrides the default; none keeps it") {
    ManualClock clock;
    Cache cache({.ttl_of = [](const int& value) -> std::chrono::milliseconds {
                     return value < 0 ? 0s : 5s;
                 },
                 .clock = clock.function()});
    cache.put("forever", -1);
    cache.put("brief", 1);
    clock.now += 1h;
    CHECK(cache.find("forever") == -1);
    CHECK_FALSE(cache.find("brief").has_value());
}

TEST_CASE("an expired value is served while one caller refreshes it") {
    ManualClock clock;
    Cache cache({.ttl = 1s, .serve_stale_while_refreshing = true, .clock = clock.function()});
    cache.put("a", 1);
    clock.now += 2s;
    Gate gate;
    std::thread refresher([&] {
        CHECK(cache.get("a", [&] {
            gate.enter_and_wait();
            return 2;
        }) == 2);
    });
    gate.wait_for_entries(1);
    CHECK(cache.get("a", [] { return 99; }) == 1);  // stale, and no second load
    gate.release();
    refresher.join();
    CHECK(cache.get("a", [] { return 99; }) == 2);

    // A failed refresh keeps the stale value and lets the next caller try again.
    clock.now += 2s;
    CHECK_THROWS_AS(cache.get("a", []() -> int { throw std::runtime_error("down"); }),
                    std::runtime_error);
    CHECK(cache.get("a", [] { return 3; }) == 3);
}

TEST_CASE("the capacity evicts the entries stored longest ago, by weight") {
    Cache cache({.capacity = 10,
                 .weight = [](const int& value) { return static_cast<std::size_t>(value); }});
    cache.put("a", 4);
    cache.put("b", 4);
    cache.put("c", 4);  // 12 > 10: "a" goes
    CHECK_FALSE(cache.find("a").has_value());
    CHECK(cache.find("b") == 4);
    CHECK(cache.find("c") == 4);
    cache.put("huge", 50);  // larger than the capacity: the newest always stays
    CHECK(cache.size() == 1);
    CHECK(cache.find("huge") == 50);
}

}  // namespace
}  // namespace loupe
