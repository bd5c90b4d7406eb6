#include "processing/processing_metrics.hpp"

namespace loupe::builds {

ProcessingMetrics::ProcessingMetrics(Host& host) {
    auto* registry = host.services().find<metrics::Metrics>();
    if (registry == nullptr) {
        return;
    }
    const char* help = "Screenshot diffs computed by this instance, by result.";
    const char* results[] = {"changed", "unchanged", "added", "failed"};
    for (int i = 0; i < 4; ++i) {
        diffs_[i] =
            &registry->counter("loupe_diffs_computed_total", help, {{"result", results[i]}});
    }
    diff_seconds_ = &registry->histogram(
        "loupe_diff_duration_seconds",
        "Time to read, decode and compare one screenshot pair and store its mask.",
        metrics::duration_buckets());
    build_seconds_ = &registry->histogram(
        "loupe_build_processing_seconds",
        "Time from a build's finalization to its conclusion, for builds this instance concluded.",
        {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800});
}

void ProcessingMetrics::diff_computed(DiffResult result, double seconds) const noexcept {
    if (diff_seconds_ == nullptr) {
        return;
    }
    diffs_[static_cast<int>(result)]->add();
    diff_seconds_->observe(seconds);
}

void ProcessingMetrics::build_concluded(const Build& build) const noexcept {
    if (build_seconds_ == nullptr || !build.concluded_at) {
        return;
    }
    // A build finalized by its creation (no parallel shards) has no separate finalization time.
    const int64_t finalized = build.finalized_at.value_or(build.created_at);
    build_seconds_->observe(static_cast<double>(*build.concluded_at - finalized) / 1000.0);
}

}  // namespace loupe::builds
