#include "message/batch_rule.hpp"

#include <algorithm>

namespace loupe::notifications {

bool batch_due(std::optional<int64_t> oldest_created_at, int64_t now, int64_t window_ms) {
    return oldest_created_at && now - *oldest_created_at >= window_ms;
}

int64_t delay_until_due(int64_t oldest_created_at, int64_t now, int64_t window_ms) {
    return std::max<int64_t>(0, oldest_created_at + window_ms - now);
}

}  // namespace loupe::notifications
