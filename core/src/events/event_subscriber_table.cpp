#include "events/event_subscriber_table.hpp"

#include <stdexcept>

#include "events/event_envelope.hpp"

namespace loupe {

void EventSubscriberTable::add(const std::string& type, int version, EventDeliveryHandler handler) {
    if (!handler) {
        throw std::logic_error("subscriber '" + name_ + "' subscribes to event '" + type +
                               "' without a handler");
    }
    if (!handlers_.emplace(std::make_pair(type, version), std::move(handler)).second) {
        throw std::logic_error("subscriber '" + name_ + "' subscribes to event '" + type +
                               "' version " + std::to_string(version) + " twice");
    }
}

void EventSubscriberTable::deliver(const Job& job) const {
    const auto envelope = read_envelope(job.payload);
    const auto handler = handlers_.find({envelope.type, envelope.version});
    if (handler == handlers_.end()) {
        log_.warn("event.unhandled", {{"subscriber", name_},
                                      {"type", envelope.type},
                                      {"version", std::to_string(envelope.version)},
                                      {"event", envelope.id}});
        return;
    }
    handler->second(EventDelivery{envelope, name_, job.id, job.attempt, job.max_attempts});
}

void EventSubscriberTable::give_up(const Job& job, const std::string& error) const {
    if (!options_.on_give_up) {
        return;
    }
    const auto envelope = read_envelope(job.payload);
    options_.on_give_up(EventDelivery{envelope, name_, job.id, job.attempt, job.max_attempts},
                        error);
}

JobKindHandlers subscriber_job_handlers(const EventSubscriberTable& table) {
    return JobKindHandlers{
        [&table](const Job& job) { table.deliver(job); },
        [&table](const Job& job, const std::string& error) { table.give_up(job, error); }};
}

}  // namespace loupe
