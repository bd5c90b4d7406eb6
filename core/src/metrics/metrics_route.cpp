#include "metrics/metrics_route.hpp"

#include "auth/bearer_header.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe::metrics {
namespace {

constexpr const char* exposition_type = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace

void add_metrics_route(Routes& routes, const MetricRegistry& registry,
                       const MetricsRouteSettings& settings, Logger& log) {
    if (!settings.enabled) {
        return;
    }
    // Only the token's digest is kept in memory.
    std::string token_digest = settings.token.empty() ? "" : crypto::sha256_hex(settings.token);
    routes.add(Method::get, "/metrics", AuthRequirement::none,
               [&registry, &log, token_digest](Request& request) {
                   if (!token_digest.empty()) {
                       const auto header = request.header("Authorization");
                       if (!header) {
                           throw HttpError(401, "Authorization header is missing");
                       }
                       if (!crypto::equal_in_constant_time(
                               token_digest, crypto::sha256_hex(parse_bearer_header(*header)))) {
                           throw HttpError(401, "Invalid metrics token");
                       }
                   }
                   std::vector<std::string> failures;
                   std::string text = registry.render(&failures);
                   for (const auto& failure : failures) {
                       log.warn("metrics.collect_failed", {{"error", failure}});
                   }
                   return Response::text(std::move(text), exposition_type);
               });
}

}  // namespace loupe::metrics
