#include "events/event_outbox.hpp"

#include "events/event_envelope.hpp"
#include "jobs/job_store.hpp"

namespace loupe {

std::size_t write_deliveries(soci::session& session, const Registries& registries,
                             const EventEnvelope& envelope) {
    std::size_t written = 0;
    std::optional<Json> payload;
    auto [first, last] = registries.event_subscriptions.equal_range(envelope.type);
    for (auto it = first; it != last; ++it) {
        const auto& subscription = it->second;
        if (subscription.version != envelope.version) {
            continue;
        }
        if (!payload) {
            payload = envelope_json(envelope);
        }
        JobOptions options;
        options.max_attempts = subscription.max_attempts;
        enqueue_job(session, subscription.subscriber, *payload, options);
        ++written;
    }
    return written;
}

}  // namespace loupe
