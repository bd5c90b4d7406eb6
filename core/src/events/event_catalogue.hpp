#pragma once
// The check made once every plugin is installed: each subscription names an event type and
// version some enabled plugin publishes.

#include <string>
#include <vector>

#include "loupe/export.hpp"
#include "plugin/registries.hpp"

namespace loupe {

/// Throws std::runtime_error when a plugin subscribes to a version of an event type that the
/// type's publisher does not publish (naming the subscriber, both plugins and the versions).
LOUPE_API void check_event_subscriptions(const Registries& registries);

/// Subscriptions to event types no enabled plugin publishes ("plugin: subscriber <- type v1"):
/// allowed (the publisher may simply be disabled), they stay idle.
LOUPE_API std::vector<std::string> idle_event_subscriptions(const Registries& registries);

}  // namespace loupe
