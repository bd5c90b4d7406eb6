#pragma once
// When a recipient's notifications are mailed: once the oldest of them waited the whole batch
// window, all of them go in one mail (so events within one window make one mail).

#include <cstdint>
#include <optional>

namespace loupe::notifications {

bool batch_due(std::optional<int64_t> oldest_created_at, int64_t now, int64_t window_ms);

/// How long to wait before the batch of a notification recorded at `oldest_created_at` is due
/// (0 when it is).
int64_t delay_until_due(int64_t oldest_created_at, int64_t now, int64_t window_ms);

}  // namespace loupe::notifications
