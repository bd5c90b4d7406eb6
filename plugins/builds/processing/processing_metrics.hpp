#pragma once
// The builds plugin's figures for GET /metrics, through the core's metrics service: diffs
// computed (by result) and how long the engine took, and each build's processing time, from its
// finalization to its conclusion. Without the service (a runtime that offers none) every call
// is a no-op.

#include <string_view>

#include "loupe/host.hpp"
#include "loupe/metrics/metrics.hpp"
#include "store/build.hpp"

namespace loupe::builds {

class ProcessingMetrics {
public:
    ProcessingMetrics() = default;
    explicit ProcessingMetrics(Host& host);

    enum class DiffResult { changed, unchanged, added, failed };
    void diff_computed(DiffResult result, double seconds) const noexcept;
    /// Call once the transaction that concluded `build` committed.
    void build_concluded(const Build& build) const noexcept;

private:
    metrics::Counter* diffs_[4] = {};
    metrics::Histogram* diff_seconds_ = nullptr;
    metrics::Histogram* build_seconds_ = nullptr;
};

}  // namespace loupe::builds
