#include "events/event_bus.hpp"

#include <exception>

#include "loupe/events/events.hpp"

namespace loupe {

Events::~Events() = default;

void publish_event(const Registries& registries, Logger& log, const std::string& topic,
                   const Json& payload) {
    auto [first, last] = registries.event_handlers.equal_range(topic);
    for (auto it = first; it != last; ++it) {
        try {
            it->second(topic, payload);
        } catch (const std::exception& error) {
            log.error("event.subscriber_failed", {{"topic", topic}, {"error", error.what()}});
        }
    }
}

}  // namespace loupe
