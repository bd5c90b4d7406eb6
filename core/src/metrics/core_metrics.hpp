#pragma once
// The figures the core reports about itself: the process (start time, version) and the
// database pool's waits.

#include "loupe/db/database.hpp"
#include "metrics/metric_registry.hpp"

namespace loupe::metrics {

/// OWNERSHIP: `database` outlives the registry's scrapes.
void add_core_collectors(MetricRegistry& registry, const Database& database);

}  // namespace loupe::metrics
