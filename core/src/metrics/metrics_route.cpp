#include "metrics/metrics_route.hpp"

#include "auth/bearer_header.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe::metrics {
namespace {

constexpr const char* exposition_type = "text/plain; version=0.0.4; charset=utf-8";

bool is_loopback(const std::string& address) {
    return address.starts_with("127.") || address == "::1" || address.starts_with("::ffff:127.");
}

}  // namespace

bool is_local_request(const Request& request) {
    return is_loopback(request.remote_address()) && !request.header("X-Forwarded-For") &&
           !request.header("Forwarded") && !request.header("X-Real-IP");
}

void add_metrics_route(Routes& routes, const MetricRegistry& registry,
                       const MetricsRouteSettings& settings, Logger& log) {
    if (!settings.enabled) {
        return;
    }
    // Only the token's digest is kept in memory.
    std::string token_digest = settings.token.empty() ? "" : crypto::sha256_hex(settings.token);
    const bool local_only = token_digest.empty() && !settings.allow_remote;
    routes.add(Method::get, "/metrics", AuthRequirement::none,
               RouteAccess::public_route("guarded by its own rule: metrics.token, else callers "
                                         "on this machine only"),
               [&registry, &log, token_digest, local_only](Request& request) {
                   if (local_only && !is_local_request(request)) {
                       throw HttpError(403, "GET /metrics answers only this machine",
                                       {"Set metrics.token (a scraper then sends it as a bearer "
                                        "token) or metrics.allow_remote=true"});
                   }
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
