#pragma once
// Observers of builds' lifecycle (other plugins register them through the builds service) and
// the summary of a build they receive.

#include <vector>

#include "build_status.hpp"
#include "loupe/builds/builds_service.hpp"
#include "processing/processing_metrics.hpp"
#include "store/build.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// What other plugins see of `build`.
BuildSummary summarize(const Build& build, const StatusInputs& inputs);

class BuildEvents {
public:
    void observe(BuildObserver observer) { observers_.push_back(std::move(observer)); }

    /// Tells every observer about `build` as it now reads, inside the caller's transaction.
    /// `diff_failed` says a diff of the build failed for good (its status reads error).
    void notify(soci::session& session, BuildEvent event, const Build& build,
                bool diff_failed = false) const;

    /// The processing figures the plugin's writers report (GET /metrics).
    const ProcessingMetrics& metrics() const { return metrics_; }
    void set_metrics(ProcessingMetrics metrics) { metrics_ = metrics; }

private:
    std::vector<BuildObserver> observers_;
    ProcessingMetrics metrics_;
};

}  // namespace loupe::builds
