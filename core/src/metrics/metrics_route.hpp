#pragma once
// GET /metrics: the registry in the Prometheus text format, for a scraper. `metrics.enabled`
// (default true) decides whether the route exists; a non-empty `metrics.token` makes it demand
// `Authorization: Bearer <token>` (401 otherwise). Without a token it answers only callers on
// this machine (a loopback address, with no proxy's forwarding header: a reverse proxy on the
// same host would otherwise open it to the world), 403 to others, unless
// `metrics.allow_remote` is true.

#include <string>

#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"
#include "metrics/metric_registry.hpp"

namespace loupe::metrics {

struct MetricsRouteSettings {
    bool enabled = true;
    std::string token;          ///< empty: no token asked
    bool allow_remote = false;  ///< without a token: answer any client, not only this machine
};

/// Whether a request comes straight from this machine: a loopback client address and no
/// forwarding header (X-Forwarded-For, Forwarded, X-Real-IP) of a proxy.
bool is_local_request(const Request& request);

/// OWNERSHIP: `registry` and `log` outlive the route.
void add_metrics_route(Routes& routes, const MetricRegistry& registry,
                       const MetricsRouteSettings& settings, Logger& log);

}  // namespace loupe::metrics
