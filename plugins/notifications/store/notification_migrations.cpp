#include "store/notification_migrations.hpp"

namespace loupe::notifications {

void add_notification_migrations(Migrations& migrations) {
    // One row per (event, recipient): a redelivered event finds its row and adds none. A row
    // joins a batch (one mail) when it is claimed; one job at a time holds a batch's lease while
    // it sends it; the batch is marked sent once the SMTP server accepted it. Preferences hold what
    // a user turned off, by kind of mail.
    migrations.add(1, "pending notifications, mail batches and preferences", R"SQL(
CREATE TABLE notification_batches (
  id {{id}},
  recipient_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  lease_until BIGINT,
  sent_at BIGINT,
  failed_at BIGINT,
  last_error TEXT
);
CREATE TABLE notification_pending (
  id {{id}},
  event_id TEXT NOT NULL,
  recipient_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  batch_id BIGINT REFERENCES notification_batches(id) ON DELETE CASCADE,
  UNIQUE (event_id, recipient_id)
);
CREATE INDEX notification_pending_unbatched ON notification_pending (recipient_id, batch_id);
CREATE TABLE notification_preferences (
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, kind)
);
CREATE TABLE notification_secrets (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
)
)SQL");
    // One row per team.invited event whose mail the SMTP server accepted: a redelivered event
    // finds it and mails nothing again.
    migrations.add(2, "mailed team invites", R"SQL(
CREATE TABLE notification_invite_mails (
  event_id TEXT PRIMARY KEY,
  invite_id BIGINT NOT NULL,
  sent_at BIGINT NOT NULL
);
)SQL");
}

}  // namespace loupe::notifications
