#pragma once
// GET /metrics: the registry in the Prometheus text format, for a scraper. `metrics.enabled`
// (default true) decides whether the route exists; a non-empty `metrics.token` makes it demand
// `Authorization: Bearer <token>` (401 otherwise).

#include <string>

#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"
#include "metrics/metric_registry.hpp"

namespace loupe::metrics {

struct MetricsRouteSettings {
    bool enabled = true;
    std::string token;  ///< empty: no token asked
};

/// OWNERSHIP: `registry` and `log` outlive the route.
void add_metrics_route(Routes& routes, const MetricRegistry& registry,
                       const MetricsRouteSettings& settings, Logger& log);

}  // namespace loupe::metrics
