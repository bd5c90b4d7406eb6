#pragma once
// One subscriber's handlers by event type and version, and the job handlers that dispatch its
// deliveries to them. Filled during its plugin's install(), read-only afterwards.

#include <map>
#include <string>
#include <utility>

#include "jobs/job_kinds.hpp"
#include "loupe/events/events.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class EventSubscriberTable {
public:
    EventSubscriberTable(std::string name, SubscriberOptions options, Logger& log)
        : name_(std::move(name)), options_(std::move(options)), log_(log) {}

    const std::string& name() const { return name_; }
    int max_attempts() const { return options_.max_attempts; }
    /// (type, version) pairs, for the registries' subscription index.
    const std::map<std::pair<std::string, int>, EventDeliveryHandler>& handlers() const {
        return handlers_;
    }

    /// Adds the handler of one type and version; a second one for the same pair throws
    /// std::logic_error.
    void add(const std::string& type, int version, EventDeliveryHandler handler);

    /// Runs the handler of the delivery's type and version. A delivery nobody handles any more
    /// (the subscription was removed while it was queued) is logged and done; a payload that is
    /// not an envelope fails.
    void deliver(const Job& job) const;
    void give_up(const Job& job, const std::string& error) const;

private:
    std::string name_;
    SubscriberOptions options_;
    Logger& log_;
    std::map<std::pair<std::string, int>, EventDeliveryHandler> handlers_;
};

/// The job kind handlers of `table` (which must outlive them).
JobKindHandlers subscriber_job_handlers(const EventSubscriberTable& table);

}  // namespace loupe
