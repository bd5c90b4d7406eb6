#pragma once
// Publishing: the event's delivery jobs, one per subscriber of its type and version, written in
// the publisher's transaction.

#include <cstddef>

#include "loupe/events/events.hpp"
#include "plugin/registries.hpp"

namespace loupe {

/// Enqueues the deliveries of `envelope` in `session`; returns how many (0 when nobody
/// subscribes). The registries must be frozen.
std::size_t write_deliveries(soci::session& session, const Registries& registries,
                             const EventEnvelope& envelope);

}  // namespace loupe
