#pragma once
// Writes the Prometheus text exposition format (version 0.0.4): for each family one HELP and
// one TYPE line, then its samples, label values and help text escaped as the format says.

#include <cstdint>
#include <string>
#include <string_view>

#include "loupe/export.hpp"
#include "loupe/metrics/metrics.hpp"

namespace loupe::metrics {

enum class MetricType { counter, gauge, histogram };

/// True for `[a-zA-Z_:][a-zA-Z0-9_:]*` (a metric name).
bool is_metric_name(std::string_view name);
/// True for `[a-zA-Z_][a-zA-Z0-9_]*` not starting with "__" (a label name).
bool is_label_name(std::string_view name);

class LOUPE_API Exposition {
public:
    /// Starts a family: its HELP and TYPE lines. Every sample of the family must follow.
    void family(std::string_view name, std::string_view help, MetricType type);
    void sample(std::string_view name, const Labels& labels, double value);
    void sample(std::string_view name, const Labels& labels, uint64_t value);
    /// The _bucket (cumulative, with le), _sum and _count samples of one histogram series.
    void histogram(std::string_view name, const Labels& labels, const Histogram& values);

    const std::string& text() const { return text_; }
    std::string take() { return std::move(text_); }

private:
    void series(std::string_view name, const Labels& labels, std::string_view extra_name = {},
                std::string_view extra_value = {});
    std::string text_;
};

/// A sample value as the format writes it: shortest round-trip decimal, +Inf, -Inf or NaN.
std::string format_value(double value);

}  // namespace loupe::metrics
