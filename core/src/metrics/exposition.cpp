#include "metrics/exposition.hpp"

#include <charconv>
#include <cmath>

namespace loupe::metrics {
namespace {

bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_name_char(char c) {
    return is_name_start(c) || (c >= '0' && c <= '9');
}

void append_escaped(std::string& out, std::string_view text, bool quote) {
    for (char c : text) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (quote && c == '"') {
            out += "\\\"";
        } else {
            out += c;
        }
    }
}

std::string_view type_name(MetricType type) {
    switch (type) {
        case MetricType::counter:
            return "counter";
        case MetricType::gauge:
            return "gauge";
        case MetricType::histogram:
            return "histogram";
    }
    return "untyped";
}

}  // namespace

bool is_metric_name(std::string_view name) {
    if (name.empty() || !(is_name_start(name[0]) || name[0] == ':')) {
        return false;
    }
    for (char c : name) {
        if (!is_name_char(c) && c != ':') {
            return false;
        }
    }
    return true;
}

bool is_label_name(std::string_view name) {
    if (name.empty() || !is_name_start(name[0]) || name.starts_with("__")) {
        return false;
    }
    for (char c : name) {
        if (!is_name_char(c)) {
            return false;
        }
    }
    return true;
}

std::string format_value(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "+Inf" : "-Inf";
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

void Exposition::family(std::string_view name, std::string_view help, MetricType type) {
    text_ += "# HELP ";
    text_ += name;
    text_ += ' ';
    append_escaped(text_, help, false);
    text_ += "\n# TYPE ";
    text_ += name;
    text_ += ' ';
    text_ += type_name(type);
    text_ += '\n';
}

void Exposition::series(std::string_view name, const Labels& labels, std::string_view extra_name,
                        std::string_view extra_value) {
    text_ += name;
    if (labels.empty() && extra_name.empty()) {
        text_ += ' ';
        return;
    }
    text_ += '{';
    bool first = true;
    auto label = [&](std::string_view label_name, std::string_view value) {
        if (!first) {
            text_ += ',';
        }
        first = false;
        text_ += label_name;
        text_ += "=\"";
        append_escaped(text_, value, true);
        text_ += '"';
    };
    for (const auto& [label_name, value] : labels) {
        label(label_name, value);
    }
    if (!extra_name.empty()) {
        label(extra_name, extra_value);
    }
    text_ += "} ";
}

void Exposition::sample(std::string_view name, const Labels& labels, double value) {
    series(name, labels);
    text_ += format_value(value);
    text_ += '\n';
}

void Exposition::sample(std::string_view name, const Labels& labels, uint64_t value) {
    series(name, labels);
    text_ += std::to_string(value);
    text_ += '\n';
}

void Exposition::histogram(std::string_view name, const Labels& labels, const Histogram& values) {
    const std::string base(name);
    const auto& bounds = values.upper_bounds();
    uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        cumulative += values.bucket_count(i);
        series(base + "_bucket", labels, "le",
               i < bounds.size() ? format_value(bounds[i]) : std::string("+Inf"));
        text_ += std::to_string(cumulative);
        text_ += '\n';
    }
    sample(base + "_sum", labels, values.sum());
    // The count is the +Inf bucket, read once, so the two always agree.
    sample(base + "_count", labels, cumulative);
}

}  // namespace loupe::metrics
