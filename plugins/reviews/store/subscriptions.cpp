#include "store/subscriptions.hpp"

#include <soci/soci.h>

#include <string>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {
namespace {

// The tables have the same shape: (<key>, user_id, subscribed, updated_at).
struct Table {
    const char* name;
    const char* key;
};
constexpr Table threads{"thread_subscriptions", "comment_id"};
constexpr Table builds{"build_subscriptions", "build_id"};
constexpr Table tests{"test_subscriptions", "test_id"};

void upsert(soci::session& session, const Table& table, int64_t key, int64_t user_id,
            bool subscribed, bool keep_choice) {
    const int value = subscribed ? 1 : 0;
    const int64_t now = now_ms();
    const std::string conflict =
        keep_choice ? "DO NOTHING"
                    : "DO UPDATE SET subscribed = excluded.subscribed, updated_at = "
                      "excluded.updated_at";
    session << std::string("INSERT INTO ") + table.name + " (" + table.key +
                   ", user_id, subscribed, updated_at) VALUES (:k, :u, :s, :now) ON CONFLICT (" +
                   table.key + ", user_id) " + conflict,
        soci::use(key), soci::use(user_id), soci::use(value), soci::use(now);
}

std::optional<bool> lookup(soci::session& session, const Table& table, int64_t key,
                           int64_t user_id) {
    int subscribed = 0;
    session << std::string("SELECT subscribed FROM ") + table.name + " WHERE " + table.key +
                   " = :k AND user_id = :u",
        soci::use(key), soci::use(user_id), soci::into(subscribed);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return subscribed != 0;
}

/// The users subscribed to the thread or build `key`, by id.
std::vector<int64_t> followers(soci::session& session, const Table& table, int64_t key) {
    std::vector<int64_t> user_ids;
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT user_id FROM ") + table.name + " WHERE " +
                                table.key + " = :k AND subscribed = 1 ORDER BY user_id",
         soci::use(key));
    for (const auto& row : rows) {
        user_ids.push_back(RowReader(row).int64("user_id"));
    }
    return user_ids;
}

}  // namespace

void set_thread_subscription(soci::session& session, int64_t root_id, int64_t user_id,
                             bool subscribed) {
    upsert(session, threads, root_id, user_id, subscribed, false);
}
void subscribe_thread_by_default(soci::session& session, int64_t root_id, int64_t user_id) {
    upsert(session, threads, root_id, user_id, true, true);
}
std::optional<bool> thread_subscription(soci::session& session, int64_t root_id, int64_t user_id) {
    return lookup(session, threads, root_id, user_id);
}
std::vector<int64_t> thread_followers(soci::session& session, int64_t root_id) {
    return followers(session, threads, root_id);
}
void set_build_subscription(soci::session& session, int64_t build_id, int64_t user_id,
                            bool subscribed) {
    upsert(session, builds, build_id, user_id, subscribed, false);
}
void subscribe_build_by_default(soci::session& session, int64_t build_id, int64_t user_id) {
    upsert(session, builds, build_id, user_id, true, true);
}
std::optional<bool> build_subscription(soci::session& session, int64_t build_id, int64_t user_id) {
    return lookup(session, builds, build_id, user_id);
}

std::vector<int64_t> build_followers(soci::session& session, int64_t build_id) {
    return followers(session, builds, build_id);
}

void set_test_subscription(soci::session& session, int64_t test_id, int64_t user_id,
                           bool subscribed) {
    upsert(session, tests, test_id, user_id, subscribed, false);
}
void subscribe_test_by_default(soci::session& session, int64_t test_id, int64_t user_id) {
    upsert(session, tests, test_id, user_id, true, true);
}
std::optional<bool> test_subscription(soci::session& session, int64_t test_id, int64_t user_id) {
    return lookup(session, tests, test_id, user_id);
}
std::vector<int64_t> test_followers(soci::session& session, int64_t test_id) {
    return followers(session, tests, test_id);
}

}  // namespace loupe::reviews
