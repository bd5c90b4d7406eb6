#include "metrics/metric_registry.hpp"

#include <cmath>
#include <stdexcept>

namespace loupe::metrics {

struct MetricRegistry::Family {
    std::string help;
    MetricType type = MetricType::counter;
    std::vector<std::string> label_names;
    std::vector<double> bounds;  ///< histograms
    std::map<Labels, std::unique_ptr<Counter>> counters;
    std::map<Labels, std::unique_ptr<Histogram>> histograms;
    std::map<Labels, std::function<double()>> gauges;
};

namespace {

std::vector<std::string> label_names_of(const std::string& metric, const Labels& labels) {
    std::vector<std::string> names;
    for (const auto& [name, value] : labels) {
        if (!is_label_name(name) || (name == "le")) {
            throw std::invalid_argument("metric " + metric + ": invalid label name '" + name + "'");
        }
        for (const auto& seen : names) {
            if (seen == name) {
                throw std::invalid_argument("metric " + metric + ": label '" + name +
                                            "' given twice");
            }
        }
        names.push_back(name);
    }
    return names;
}

void check_bounds(const std::string& metric, const std::vector<double>& bounds) {
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        if (!std::isfinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
            throw std::invalid_argument("histogram " + metric +
                                        ": bucket bounds must be finite and ascending");
        }
    }
}

}  // namespace

MetricRegistry::MetricRegistry() = default;
MetricRegistry::~MetricRegistry() = default;

MetricRegistry::Family& MetricRegistry::family_for(const std::string& name, const std::string& help,
                                                   MetricType type, const Labels& labels) {
    if (!is_metric_name(name)) {
        throw std::invalid_argument("invalid metric name '" + name + "'");
    }
    if (collector_names_.contains(name)) {
        throw std::invalid_argument("metric " + name + " is already reported by the core");
    }
    auto names = label_names_of(name, labels);
    auto& slot = families_[name];
    if (!slot) {
        slot = std::make_unique<Family>();
        slot->help = help;
        slot->type = type;
        slot->label_names = std::move(names);
        return *slot;
    }
    if (slot->type != type || slot->help != help || slot->label_names != names) {
        throw std::invalid_argument("metric " + name +
                                    " is already registered with another type, help text or "
                                    "label names");
    }
    return *slot;
}

Counter& MetricRegistry::counter(const std::string& name, const std::string& help,
                                 const Labels& labels) {
    const std::lock_guard lock(mutex_);
    auto& family = family_for(name, help, MetricType::counter, labels);
    auto& slot = family.counters[labels];
    if (!slot) {
        slot = std::make_unique<Counter>();
    }
    return *slot;
}

Histogram& MetricRegistry::histogram(const std::string& name, const std::string& help,
                                     const std::vector<double>& upper_bounds,
                                     const Labels& labels) {
    check_bounds(name, upper_bounds);
    const std::lock_guard lock(mutex_);
    auto& family = family_for(name, help, MetricType::histogram, labels);
    if (family.histograms.empty() && family.bounds.empty()) {
        family.bounds = upper_bounds;
    } else if (family.bounds != upper_bounds) {
        throw std::invalid_argument("histogram " + name +
                                    " is already registered with other bucket bounds");
    }
    auto& slot = family.histograms[labels];
    if (!slot) {
        slot = std::make_unique<Histogram>(upper_bounds);
    }
    return *slot;
}

void MetricRegistry::gauge(const std::string& name, const std::string& help,
                           std::function<double()> read, const Labels& labels) {
    if (!read) {
        throw std::invalid_argument("gauge " + name + ": no function to read it");
    }
    const std::lock_guard lock(mutex_);
    auto& family = family_for(name, help, MetricType::gauge, labels);
    if (family.gauges.contains(labels)) {
        throw std::invalid_argument("gauge " + name + " is already registered with these labels");
    }
    family.gauges.emplace(labels, std::move(read));
}

void MetricRegistry::add_collector(const std::vector<std::string>& names, Collector collector) {
    const std::lock_guard lock(mutex_);
    for (const auto& name : names) {
        if (families_.contains(name) || collector_names_.contains(name)) {
            throw std::invalid_argument("metric " + name + " is already registered");
        }
    }
    for (const auto& name : names) {
        collector_names_[name] = true;
    }
    collectors_.push_back(std::move(collector));
}

std::string MetricRegistry::render(std::vector<std::string>* failures) const {
    Exposition out;
    std::vector<Collector> collectors;
    {
        const std::lock_guard lock(mutex_);
        for (const auto& [name, family] : families_) {
            out.family(name, family->help, family->type);
            for (const auto& [labels, value] : family->counters) {
                out.sample(name, labels, value->value());
            }
            for (const auto& [labels, values] : family->histograms) {
                out.histogram(name, labels, *values);
            }
            for (const auto& [labels, read] : family->gauges) {
                double value = std::nan("");
                try {
                    value = read();
                } catch (const std::exception& error) {
                    if (failures != nullptr) {
                        failures->push_back("gauge " + name + ": " + error.what());
                    }
                }
                out.sample(name, labels, value);
            }
        }
        collectors = collectors_;
    }
    // Collectors may query the database: outside the lock, each into its own buffer so a
    // failing one leaves no half-written family behind.
    std::string text = out.take();
    for (const auto& collect : collectors) {
        Exposition part;
        try {
            collect(part);
            text += part.text();
        } catch (const std::exception& error) {
            if (failures != nullptr) {
                failures->push_back(error.what());
            }
        }
    }
    return text;
}

}  // namespace loupe::metrics
