#pragma once
// Who follows a thread, a build or a test. An explicit choice (subscribe or unsubscribe) is kept,
// so an automatic subscription never overrides a user's unsubscribe.

#include <cstdint>
#include <optional>
#include <vector>

namespace soci {
class session;
}

namespace loupe::reviews {

/// Sets the user's subscription to the thread whose root is `root_id`.
void set_thread_subscription(soci::session& session, int64_t root_id, int64_t user_id,
                             bool subscribed);
/// Subscribes the user unless they chose before (either way).
void subscribe_thread_by_default(soci::session& session, int64_t root_id, int64_t user_id);
std::optional<bool> thread_subscription(soci::session& session, int64_t root_id, int64_t user_id);
/// The users who follow the thread whose root is `root_id`, by id.
std::vector<int64_t> thread_followers(soci::session& session, int64_t root_id);

void set_build_subscription(soci::session& session, int64_t build_id, int64_t user_id,
                            bool subscribed);
void subscribe_build_by_default(soci::session& session, int64_t build_id, int64_t user_id);
std::optional<bool> build_subscription(soci::session& session, int64_t build_id, int64_t user_id);
/// The users who follow the build, by id.
std::vector<int64_t> build_followers(soci::session& session, int64_t build_id);

void set_test_subscription(soci::session& session, int64_t test_id, int64_t user_id,
                           bool subscribed);
void subscribe_test_by_default(soci::session& session, int64_t test_id, int64_t user_id);
std::optional<bool> test_subscription(soci::session& session, int64_t test_id, int64_t user_id);
/// The users who follow the test, by id.
std::vector<int64_t> test_followers(soci::session& session, int64_t test_id);

}  // namespace loupe::reviews
