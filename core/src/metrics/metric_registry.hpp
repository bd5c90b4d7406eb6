#pragma once
// The process's metrics: the families plugins and the core register (loupe/metrics/metrics.hpp)
// and the collectors that compute theirs at scrape time (the HTTP route table, the job queue,
// the database pool), rendered together in the text exposition format.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/metrics/metrics.hpp"
#include "metrics/exposition.hpp"

namespace loupe::metrics {

class LOUPE_API MetricRegistry final : public Metrics {
public:
    MetricRegistry();
    ~MetricRegistry() override;

    Counter& counter(const std::string& name, const std::string& help,
                     const Labels& labels = {}) override;
    Histogram& histogram(const std::string& name, const std::string& help,
                         const std::vector<double>& upper_bounds,
                         const Labels& labels = {}) override;
    void gauge(const std::string& name, const std::string& help, std::function<double()> read,
               const Labels& labels = {}) override;

    /// Writes whole families of its own at each scrape. `names` are the families it writes:
    /// registering one of them afterwards (or before) is refused.
    using Collector = std::function<void(Exposition&)>;
    void add_collector(const std::vector<std::string>& names, Collector collector);

    /// Every family, in the text exposition format. A collector that throws is left out of
    /// this scrape (its message is returned in `failures`).
    std::string render(std::vector<std::string>* failures = nullptr) const;

private:
    struct Family;
    Family& family_for(const std::string& name, const std::string& help, MetricType type,
                       const Labels& labels);

    mutable std::mutex mutex_;
    std::map<std::string, std::unique_ptr<Family>> families_;
    std::map<std::string, bool> collector_names_;
    std::vector<Collector> collectors_;
};

}  // namespace loupe::metrics
