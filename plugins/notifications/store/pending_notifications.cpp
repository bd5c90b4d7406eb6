#include "store/pending_notifications.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::notifications {
namespace {

std::vector<PendingNotification> notifications_of_batch(soci::session& session, int64_t batch_id) {
    std::vector<PendingNotification> notifications;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, event_id, recipient_id, kind, payload, created_at "
                            "FROM notification_pending WHERE batch_id = :b ORDER BY created_at, id",
         soci::use(batch_id));
    for (const auto& row : rows) {
        RowReader read(row);
        notifications.push_back(
            PendingNotification{read.int64("id"), read.text("event_id"), read.int64("recipient_id"),
                                read.text("kind"), read.json("payload"), read.int64("created_at")});
    }
    return notifications;
}

}  // namespace

bool add_pending(soci::session& session, const std::string& event_id, int64_t recipient_id,
                 const std::string& kind, const Json& payload, int64_t now) {
    const std::string text = payload.dump();
    soci::statement insert =
        (session.prepare << "INSERT INTO notification_pending "
                            "(event_id, recipient_id, kind, payload, created_at) "
                            "VALUES (:e, :r, :k, :p, :t) "
                            "ON CONFLICT (event_id, recipient_id) DO NOTHING",
         soci::use(event_id), soci::use(recipient_id), soci::use(kind), soci::use(text),
         soci::use(now));
    insert.execute(true);
    return insert.get_affected_rows() > 0;
}

std::optional<int64_t> oldest_unbatched(soci::session& session, int64_t recipient_id) {
    soci::indicator indicator = soci::i_null;
    long long oldest = 0;
    session << "SELECT MIN(created_at) FROM notification_pending "
               "WHERE recipient_id = :r AND batch_id IS NULL",
        soci::use(recipient_id), soci::into(oldest, indicator);
    if (indicator != soci::i_ok) {
        return std::nullopt;
    }
    return oldest;
}

std::optional<MailBatch> open_batch(soci::session& session, int64_t recipient_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, message_id FROM notification_batches "
                            "WHERE recipient_id = :r AND sent_at IS NULL AND failed_at IS NULL "
                            "ORDER BY id LIMIT 1",
         soci::use(recipient_id));
    for (const auto& row : rows) {
        RowReader read(row);
        MailBatch batch{read.int64("id"), recipient_id, read.text("message_id"), {}};
        batch.notifications = notifications_of_batch(session, batch.id);
        return batch;
    }
    return std::nullopt;
}

MailBatch claim_batch(soci::session& session, int64_t recipient_id, const std::string& message_id,
                      int64_t now) {
    long long batch_id = 0;
    session << "INSERT INTO notification_batches (recipient_id, message_id, created_at) "
               "VALUES (:r, :m, :t) RETURNING id",
        soci::use(recipient_id), soci::use(message_id), soci::use(now), soci::into(batch_id);
    session << "UPDATE notification_pending SET batch_id = :b "
               "WHERE recipient_id = :r AND batch_id IS NULL",
        soci::use(static_cast<int64_t>(batch_id)), soci::use(recipient_id);
    return MailBatch{batch_id, recipient_id, message_id, notifications_of_batch(session, batch_id)};
}

bool lease_batch(soci::session& session, int64_t batch_id, int64_t now, int64_t lease_until) {
    soci::statement update =
        (session.prepare << "UPDATE notification_batches SET lease_until = :u WHERE id = :b "
                            "AND (lease_until IS NULL OR lease_until <= :n)",
         soci::use(lease_until), soci::use(batch_id), soci::use(now));
    update.execute(true);
    return update.get_affected_rows() > 0;
}

void release_batch(soci::session& session, int64_t batch_id) {
    session << "UPDATE notification_batches SET lease_until = NULL WHERE id = :b",
        soci::use(batch_id);
}

void mark_batch_sent(soci::session& session, int64_t batch_id, int64_t now) {
    session << "UPDATE notification_batches SET sent_at = :t, last_error = NULL WHERE id = :b",
        soci::use(now), soci::use(batch_id);
}

void mark_batch_failed(soci::session& session, int64_t batch_id, const std::string& error,
                       int64_t now) {
    session << "UPDATE notification_batches SET failed_at = :t, last_error = :e WHERE id = :b",
        soci::use(now), soci::use(error), soci::use(batch_id);
}

}  // namespace loupe::notifications
