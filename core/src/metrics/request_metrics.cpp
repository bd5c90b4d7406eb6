#include "metrics/request_metrics.hpp"

#include <map>
#include <utility>

namespace loupe::metrics {
namespace {

// More distinct statuses than this on one route are counted under status "other".
constexpr std::size_t statuses_per_series = 16;

constexpr const char* requests_name = "loupe_http_requests_total";
constexpr const char* duration_name = "loupe_http_request_duration_seconds";
constexpr const char* in_flight_name = "loupe_http_requests_in_flight";

constexpr std::array all_methods{Method::get,   Method::head, Method::post,   Method::put,
                                 Method::patch, Method::del,  Method::options};

/// The route label: its pattern, behind its virtual host's suffix for a virtual-host route.
std::string route_text(const Route& route) {
    if (route.options.host_suffix.empty()) {
        return route.pattern;
    }
    return "*." + route.options.host_suffix + route.pattern;
}

}  // namespace

struct RequestMetrics::Series {
    struct StatusCount {
        std::atomic<int> status{0};  ///< 0: free
        std::atomic<uint64_t> count{0};
    };
    Series(std::string method_label, std::string route_label)
        : method(std::move(method_label)), route(std::move(route_label)) {}

    void count_status(int status_code) noexcept {
        for (auto& slot : statuses) {
            int seen = slot.status.load(std::memory_order_acquire);
            if (seen == 0 && slot.status.compare_exchange_strong(seen, status_code)) {
                seen = status_code;
            }
            if (seen == status_code) {
                slot.count.fetch_add(1, std::memory_order_relaxed);
                return;
            }
        }
        other_statuses.fetch_add(1, std::memory_order_relaxed);
    }

    std::string method;
    std::string route;
    Histogram latency{duration_buckets()};
    std::array<StatusCount, statuses_per_series> statuses;
    std::atomic<uint64_t> other_statuses{0};
};

RequestMetrics::RequestMetrics(const std::vector<RegisteredRoute>& routes, std::string listener)
    : listener_(std::move(listener)), routes_begin_(routes.data()), route_count_(routes.size()) {
    std::map<std::pair<std::string, std::string>, Series*> by_labels;
    auto series = [&](std::string method, std::string route) {
        auto& slot = by_labels[{method, route}];
        if (slot == nullptr) {
            series_.push_back(std::make_unique<Series>(std::move(method), std::move(route)));
            slot = series_.back().get();
        }
        return slot;
    };
    for (const auto& registered : routes) {
        by_route_.push_back(
            series(std::string(to_string(registered.route.method)), route_text(registered.route)));
    }
    for (std::size_t i = 0; i < all_methods.size(); ++i) {
        unmatched_by_method_[i] = series(std::string(to_string(all_methods[i])), "none");
    }
    unmatched_by_method_.back() = series("other", "none");
}

RequestMetrics::~RequestMetrics() = default;

RequestMetrics::Series* RequestMetrics::series_for(const RegisteredRoute* route,
                                                   std::optional<Method> method) const noexcept {
    if (route != nullptr && route >= routes_begin_ && route < routes_begin_ + route_count_) {
        return by_route_[static_cast<std::size_t>(route - routes_begin_)];
    }
    if (method) {
        return unmatched_by_method_[static_cast<std::size_t>(*method)];
    }
    return unmatched_by_method_.back();
}

void RequestMetrics::started() noexcept {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
}

void RequestMetrics::finished(const RegisteredRoute* route, std::optional<Method> method,
                              int status, double seconds) noexcept {
    in_flight_.fetch_sub(1, std::memory_order_relaxed);
    Series* series = series_for(route, method);
    series->count_status(status);
    series->latency.observe(seconds);
}

std::vector<std::string> RequestMetrics::family_names() {
    return {requests_name, duration_name, in_flight_name};
}

Labels RequestMetrics::labels_of(const Series& series) const {
    Labels labels;
    if (!listener_.empty()) {
        labels.emplace_back("listener", listener_);
    }
    labels.emplace_back("method", series.method);
    labels.emplace_back("route", series.route);
    return labels;
}

void RequestMetrics::collect(Exposition& out) const {
    collect(out, {this});
}

void RequestMetrics::collect(Exposition& out, const std::vector<const RequestMetrics*>& all) {
    out.family(requests_name, "HTTP requests answered, by method, route template and status.",
               MetricType::counter);
    for (const RequestMetrics* metrics : all) {
        for (const auto& series : metrics->series_) {
            const Labels labels = metrics->labels_of(*series);
            for (const auto& slot : series->statuses) {
                const int status = slot.status.load(std::memory_order_acquire);
                if (status == 0) {
                    break;
                }
                Labels with_status = labels;
                with_status.emplace_back("status", std::to_string(status));
                out.sample(requests_name, with_status, slot.count.load(std::memory_order_relaxed));
            }
            if (const uint64_t other = series->other_statuses.load(std::memory_order_relaxed)) {
                Labels with_status = labels;
                with_status.emplace_back("status", "other");
                out.sample(requests_name, with_status, other);
            }
        }
    }
    out.family(duration_name,
               "Time from a request's head to its response sent, by method and route template.",
               MetricType::histogram);
    for (const RequestMetrics* metrics : all) {
        for (const auto& series : metrics->series_) {
            uint64_t total = 0;
            for (std::size_t i = 0; i <= series->latency.upper_bounds().size(); ++i) {
                total += series->latency.bucket_count(i);
            }
            if (total > 0) {
                out.histogram(duration_name, metrics->labels_of(*series), series->latency);
            }
        }
    }
    out.family(in_flight_name, "HTTP requests being handled now.", MetricType::gauge);
    for (const RequestMetrics* metrics : all) {
        Labels labels;
        if (!metrics->listener_.empty()) {
            labels.emplace_back("listener", metrics->listener_);
        }
        out.sample(in_flight_name, labels, static_cast<double>(metrics->in_flight()));
    }
}

}  // namespace loupe::metrics
