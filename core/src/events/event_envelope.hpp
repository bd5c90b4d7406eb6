#pragma once
// The payload of an event delivery job, and the ids events get.

#include <string>

#include "loupe/events/events.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

/// {"id", "type", "version", "publisher", "publishedAt", "data"}: what `loupe jobs list` shows
/// as a delivery's payload.
LOUPE_API Json envelope_json(const EventEnvelope& envelope);

/// The envelope a delivery job carries; throws std::runtime_error naming what is missing when
/// the payload is not one.
LOUPE_API EventEnvelope read_envelope(const Json& payload);

/// A new UUIDv7: 48 bits of the clock in milliseconds, then 74 random bits, so ids sort by
/// publication time and never repeat across instances.
LOUPE_API std::string new_event_id();

}  // namespace loupe
