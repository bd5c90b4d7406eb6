#pragma once
// The events this plugin publishes (loupe/builds/events.hpp), written by its writers inside the
// transaction that changed the build, and the processing figures those writers report.

#include "loupe/events/events.hpp"
#include "processing/processing_metrics.hpp"
#include "store/build.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

enum class BuildEvent { created, finalized, concluded, failed };

class BuildEvents {
public:
    /// Declares the events (install() only).
    explicit BuildEvents(Events& events);

    /// Publishes `event` about `build` as it now reads, in the caller's transaction.
    /// `diff_failed` says a diff of the build failed for good (its status reads error).
    void publish(soci::session& session, BuildEvent event, const Build& build,
                 bool diff_failed = false) const;

    /// The processing figures the plugin's writers report (GET /metrics).
    const ProcessingMetrics& metrics() const { return metrics_; }
    void set_metrics(ProcessingMetrics metrics) { metrics_ = metrics; }

private:
    Events& events_;
    ProcessingMetrics metrics_;
};

}  // namespace loupe::builds
