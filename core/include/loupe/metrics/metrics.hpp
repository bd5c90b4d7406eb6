#pragma once
// Prometheus metrics. The core owns one registry per process and serves it at GET /metrics; a
// plugin reports through it as a service:
//
//   if (auto* metrics = host.services().find<loupe::metrics::Metrics>()) {
//       auto& sent = metrics->counter("loupe_mail_sent_total", "Mails sent.");
//       ...
//       sent.add();
//   }
//
// Registering takes a lock (do it once, in install(), and keep the reference); updating a
// Counter or a Histogram is a few relaxed atomic operations and never locks. Label values must
// come from a small fixed set (a kind, a result), never from a request: each distinct set of
// labels is a series kept for the life of the process.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace loupe::metrics {

/// Label names and values of one series, e.g. {{"result", "changed"}}.
using Labels = std::vector<std::pair<std::string, std::string>>;

/// A count that only goes up. Lock-free.
class Counter {
public:
    void add(uint64_t amount = 1) noexcept { value_.fetch_add(amount, std::memory_order_relaxed); }
    uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<uint64_t> value_{0};
};

/// Observations counted into buckets by upper bound (inclusive), with their count and sum.
/// Lock-free: a scrape may see an observation in its bucket a moment before it is in the sum.
class Histogram {
public:
    /// `upper_bounds` ascending and finite; the +Inf bucket is implicit.
    explicit Histogram(std::vector<double> upper_bounds)
        : bounds_(std::move(upper_bounds)),
          counts_(std::make_unique<std::atomic<uint64_t>[]>(bounds_.size() + 1)) {}

    void observe(double value) noexcept {
        std::size_t bucket = 0;
        while (bucket < bounds_.size() && value > bounds_[bucket]) {
            ++bucket;
        }
        counts_[bucket].fetch_add(1, std::memory_order_relaxed);
        sum_.fetch_add(value, std::memory_order_relaxed);
    }

    const std::vector<double>& upper_bounds() const noexcept { return bounds_; }
    /// Observations in bucket `i` alone (not cumulative); `i == upper_bounds().size()` is +Inf.
    uint64_t bucket_count(std::size_t i) const noexcept {
        return counts_[i].load(std::memory_order_relaxed);
    }
    double sum() const noexcept { return sum_.load(std::memory_order_relaxed); }

private:
    std::vector<double> bounds_;
    std::unique_ptr<std::atomic<uint64_t>[]> counts_;
    std::atomic<double> sum_{0.0};
};

/// Bucket bounds for durations in seconds: 5 ms to 60 s.
inline std::vector<double> duration_buckets() {
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

/// The process's registry, provided by the core as a service.
/// THREADS: every member is safe from any thread. The objects returned live as long as the
/// process.
class LOUPE_API Metrics {
public:
    static constexpr const char* service_name = "core.Metrics";
    static constexpr int service_version = 1;

    virtual ~Metrics();

    /// The counter `name` with these labels, created on first use; the same name and labels
    /// give the same object. Names are `[a-zA-Z_:][a-zA-Z0-9_:]*` (counters end in `_total`),
    /// label names `[a-zA-Z_][a-zA-Z0-9_]*`. Throws std::invalid_argument for a bad name or
    /// label, or a name already registered with another type, help text or label names.
    virtual Counter& counter(const std::string& name, const std::string& help,
                             const Labels& labels = {}) = 0;
    /// Same rules; every series of one histogram name has the same bounds.
    virtual Histogram& histogram(const std::string& name, const std::string& help,
                                 const std::vector<double>& upper_bounds,
                                 const Labels& labels = {}) = 0;
    /// A gauge whose value `read` returns at each scrape. `read` must be quick and must not
    /// call back into the registry.
    virtual void gauge(const std::string& name, const std::string& help,
                       std::function<double()> read, const Labels& labels = {}) = 0;
};

}  // namespace loupe::metrics
