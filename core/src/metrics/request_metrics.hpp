#pragma once
// The HTTP figures: requests by method, route template and status, their latency, and the
// requests in progress. A request is counted under the pattern of the route it matched (never
// its path, so the series are bounded by the route table), or under route "none" when it
// matched none. HEAD requests answered by a GET route count as GET.
// THREADS: started()/finished() from any thread, without locks; collect() at scrape time.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/method.hpp"
#include "loupe/metrics/metrics.hpp"
#include "metrics/exposition.hpp"
#include "plugin/registries.hpp"

namespace loupe::metrics {

class LOUPE_API RequestMetrics {
public:
    /// OWNERSHIP: `routes` (the frozen registry the Router points into) outlives this object.
    /// `listener`: empty for the API's listener, else the extra listener's name.
    explicit RequestMetrics(const std::vector<RegisteredRoute>& routes, std::string listener = {});
    ~RequestMetrics();
    RequestMetrics(const RequestMetrics&) = delete;
    RequestMetrics& operator=(const RequestMetrics&) = delete;

    void started() noexcept;
    /// `route`: what the request matched (nullptr: nothing); `method`: its parsed method.
    void finished(const RegisteredRoute* route, std::optional<Method> method, int status,
                  double seconds) noexcept;
    int64_t in_flight() const noexcept { return in_flight_.load(std::memory_order_relaxed); }

    /// The families collect() writes.
    static std::vector<std::string> family_names();
    void collect(Exposition& out) const;
    /// The families of several instances (the API's listener and the extra ones) at once.
    static void collect(Exposition& out, const std::vector<const RequestMetrics*>& all);

private:
    struct Series;
    Series* series_for(const RegisteredRoute* route, std::optional<Method> method) const noexcept;
    Labels labels_of(const Series& series) const;

    std::string listener_;
    const RegisteredRoute* routes_begin_;
    std::size_t route_count_;
    std::vector<Series*> by_route_;                 ///< per route; routes with equal labels share
    std::array<Series*, 8> unmatched_by_method_{};  ///< per Method, then "other"
    std::vector<std::unique_ptr<Series>> series_;
    std::atomic<int64_t> in_flight_{0};
};

}  // namespace loupe::metrics
