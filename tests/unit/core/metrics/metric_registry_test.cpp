// The metrics registry and its text exposition, read back by a strict parser of the format.
#include "metrics/metric_registry.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "db/database_impl.hpp"
#include "db/pool_stats.hpp"
#include "http/router.hpp"
#include "metrics/request_metrics.hpp"
#include "support/prometheus_text.hpp"
#include "support/test_database.hpp"

namespace loupe::metrics {
namespace {

TEST_CASE("metrics: counters, histograms and gauges render as the text format says") {
    MetricRegistry registry;
    auto& changed = registry.counter("loupe_test_diffs_total", "Diffs\\by result.\nSecond line.",
                                     {{"result", "changed"}});
    auto& odd = registry.counter("loupe_test_diffs_total", "Diffs\\by result.\nSecond line.",
                                 {{"result", "a \"quoted\"\\value\n"}});
    changed.add(3);
    odd.add();
    CHECK(&registry.counter("loupe_test_diffs_total", "Diffs\\by result.\nSecond line.",
                            {{"result", "changed"}}) == &changed);
    auto& latency = registry.histogram("loupe_test_seconds", "Latency.", {0.1, 1, 10});
    for (double value : {0.05, 0.1, 0.5, 2.0, 50.0}) {
        latency.observe(value);
    }
    registry.gauge("loupe_test_depth", "Depth.", [] { return 7.5; });
    registry.gauge("loupe_test_broken", "Broken.",
                   []() -> double { throw std::runtime_error("down"); });

    std::vector<std::string> failures;
    const std::string text = registry.render(&failures);
    const auto parsed = test::PromText::parse(text);
    CHECK(parsed.families.at("loupe_test_diffs_total").type == "counter");
    CHECK(parsed.families.at("loupe_test_diffs_total").help ==
          "Diffs\\\\by result.\\nSecond line.");
    CHECK(parsed.value("loupe_test_diffs_total", {{"result", "changed"}}) == 3);
    CHECK(parsed.value("loupe_test_diffs_total", {{"result", "a \"quoted\"\\value\n"}}) == 1);
    CHECK(parsed.value("loupe_test_seconds_bucket", {{"le", "0.1"}}) == 2);  // bounds inclusive
    CHECK(parsed.value("loupe_test_seconds_bucket", {{"le", "1"}}) == 3);
    CHECK(parsed.value("loupe_test_seconds_bucket", {{"le", "10"}}) == 4);
    CHECK(parsed.value("loupe_test_seconds_bucket", {{"le", "+Inf"}}) == 5);
    CHECK(parsed.value("loupe_test_seconds_count") == 5);
    CHECK(parsed.value("loupe_test_seconds_sum") == doctest::Approx(52.65));
    CHECK(parsed.value("loupe_test_depth") == 7.5);
    CHECK(std::isnan(parsed.value("loupe_test_broken")));
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].find("down") != std::string::npos);
    CHECK(text.find("loupe_test_diffs_total{result=\"a \\\"quoted\\\"\\\\value\\n\"} 1\n") !=
          std::string::npos);
}

TEST_CASE("metrics: registration refuses bad names and conflicting redefinitions") {
    MetricRegistry registry;
    registry.counter("loupe_ok_total", "Fine.", {{"kind", "a"}});
    CHECK_THROWS_AS(registry.counter("0bad", "x"), std::invalid_argument);
    CHECK_THROWS_AS(registry.counter("loupe bad", "x"), std::invalid_argument);
    CHECK_THROWS_AS(registry.counter("loupe_x_total", "x", {{"__reserved", "v"}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(registry.counter("loupe_x_total", "x", {{"a", "1"}, {"a", "2"}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(registry.histogram("loupe_h", "x", {1, 1}), std::invalid_argument);
    CHECK_THROWS_AS(registry.histogram("loupe_h", "x", {1, INFINITY}), std::invalid_argument);
    CHECK_THROWS_AS(registry.histogram("loupe_h", "x", {1}, {{"le", "1"}}), std::invalid_argument);
    // Same name, another type, help or label names.
    CHECK_THROWS_AS(registry.histogram("loupe_ok_total", "Fine.", {1}), std::invalid_argument);
    CHECK_THROWS_AS(registry.counter("loupe_ok_total", "Other.", {{"kind", "a"}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(registry.counter("loupe_ok_total", "Fine.", {{"plugin", "a"}}),
                    std::invalid_argument);
    registry.histogram("loupe_h2", "x", {1, 2});
    CHECK_THROWS_AS(registry.histogram("loupe_h2", "x", {1, 3}, {{"k", "v"}}),
                    std::invalid_argument);
    // The core's own families cannot be taken.
    registry.add_collector({"loupe_core_family"}, [](Exposition&) {});
    CHECK_THROWS_AS(registry.counter("loupe_core_family", "x"), std::invalid_argument);
    CHECK_THROWS_AS(registry.add_collector({"loupe_ok_total"}, [](Exposition&) {}),
                    std::invalid_argument);
}

TEST_CASE("metrics: counters and histograms stay exact under concurrent updates") {
    MetricRegistry registry;
    auto& counter = registry.counter("loupe_race_total", "Race.");
    auto& histogram = registry.histogram("loupe_race_seconds", "Race.", {0.5});
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10'000; ++i) {
                counter.add();
                histogram.observe(i % 2 == 0 ? 0.25 : 1.0);
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    const auto parsed = test::PromText::parse(registry.render());
    CHECK(parsed.value("loupe_race_total") == 40'000);
    CHECK(parsed.value("loupe_race_seconds_bucket", {{"le", "0.5"}}) == 20'000);
    CHECK(parsed.value("loupe_race_seconds_count") == 40'000);
    CHECK(parsed.value("loupe_race_seconds_sum") == doctest::Approx(25'000));
}

TEST_CASE("metrics: requests are counted by route template, never by path") {
    std::vector<RegisteredRoute> routes;
    auto handler = [](Request&) { return Response::no_content(); };
    routes.push_back({Route{Method::get,
                            "/builds/{buildId}",
                            AuthRequirement::none,
                            RouteAccess::public_route("counted in a test"),
                            [handler](Request&) -> Handler { return handler; },
                            {}},
                      "builds"});
    routes.push_back({Route{Method::post,
                            "/builds",
                            AuthRequirement::none,
                            RouteAccess::public_route("counted in a test"),
                            [handler](Request&) -> Handler { return handler; },
                            {}},
                      "builds"});
    RequestMetrics requests(routes);
    MetricRegistry registry;
    registry.add_collector(RequestMetrics::family_names(),
                           [&](Exposition& out) { requests.collect(out); });
    for (int i = 0; i < 3; ++i) {
        requests.started();
        requests.finished(&routes[0], Method::get, 200, 0.002);
    }
    requests.started();
    requests.finished(&routes[0], Method::head, 404, 0.2);
    requests.started();
    requests.finished(nullptr, Method::get, 404, 0.001);
    requests.started();
    requests.finished(nullptr, std::nullopt, 405, 0.001);
    // More distinct statuses than a series keeps are counted as "other".
    for (int status = 200; status < 220; ++status) {
        requests.started();
        requests.finished(&routes[1], Method::post, status, 0.01);
    }
    requests.started();  // one still in progress

    const auto parsed = test::PromText::parse(registry.render());
    CHECK(parsed.value("loupe_http_requests_total",
                       {{"method", "GET"}, {"route", "/builds/{buildId}"}, {"status", "200"}}) ==
          3);
    CHECK(parsed.value("loupe_http_requests_total",
                       {{"method", "GET"}, {"route", "/builds/{buildId}"}, {"status", "404"}}) ==
          1);
    CHECK(parsed.value("loupe_http_requests_total",
                       {{"method", "GET"}, {"route", "none"}, {"status", "404"}}) == 1);
    CHECK(parsed.value("loupe_http_requests_total",
                       {{"method", "other"}, {"route", "none"}, {"status", "405"}}) == 1);
    CHECK(parsed.sum("loupe_http_requests_total", {{"route", "/builds"}}) == 20);
    CHECK(parsed.value("loupe_http_requests_total", {{"route", "/builds"}, {"status", "other"}}) ==
          4);
    CHECK(parsed.value("loupe_http_request_duration_seconds_count",
                       {{"method", "GET"}, {"route", "/builds/{buildId}"}}) == 4);
    CHECK(parsed.value("loupe_http_request_duration_seconds_bucket",
                       {{"method", "GET"}, {"route", "/builds/{buildId}"}, {"le", "0.005"}}) == 3);
    CHECK(parsed.value("loupe_http_requests_in_flight") == 1);
    // Routes without requests add no latency series.
    CHECK(parsed.sum("loupe_http_request_duration_seconds_count", {{"method", "PUT"}}) == 0);
}

TEST_CASE("metrics: the database pool counts the leases that had to wait") {
    test::TempDir dir;
    auto database = open_database("sqlite:" + dir.path() + "/pool.db", 1);
    const PoolStats* stats = pool_stats_of(*database);
    REQUIRE(stats != nullptr);
    CHECK(stats->size == 1);
    { auto free_lease = database->session(); }
    CHECK(stats->waits.load() == 0);

    std::atomic<bool> leased{false};
    std::atomic<bool> asking{false};
    std::chrono::nanoseconds asked_for{0};
    std::thread waiter;
    {
        auto held = database->session();
        waiter = std::thread([&] {
            asking = true;
            const auto started = std::chrono::steady_clock::now();
            auto lease = database->session();  // waits for `held`
            asked_for = std::chrono::steady_clock::now() - started;
            leased = true;
        });
        while (!asking.load()) {
            std::this_thread::yield();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        CHECK_FALSE(leased.load());
    }
    waiter.join();
    CHECK(leased.load());
    CHECK(stats->waits.load() == 1);
    // The wait is timed inside the waiter's call: more than nothing, never more than the call
    // took (how long the scheduler let the waiter run before it asked is not the pool's wait).
    CHECK(stats->wait_nanoseconds.load() > 0);
    CHECK(stats->wait_nanoseconds.load() <= static_cast<uint64_t>(asked_for.count()));
}

}  // namespace
}  // namespace loupe::metrics
