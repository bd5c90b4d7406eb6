// Key function of the metrics service interface: its typeinfo and vtable live once, in
// libloupe-core.
#include "loupe/metrics/metrics.hpp"

namespace loupe::metrics {

Metrics::~Metrics() = default;

}  // namespace loupe::metrics
