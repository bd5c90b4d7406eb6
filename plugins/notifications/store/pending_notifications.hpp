#pragma once
// The notifications waiting to be mailed and the batches (one mail each) they are sent in.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::notifications {

struct PendingNotification {
    int64_t id = 0;
    std::string event_id;
    int64_t recipient_id = 0;
    std::string kind;
    Json payload;
    int64_t created_at = 0;
};

struct MailBatch {
    int64_t id = 0;
    int64_t recipient_id = 0;
    std::string message_id;  ///< the mail's Message-ID: the same on every attempt
    std::vector<PendingNotification> notifications;
};

/// Records a notification unless this event already gave this recipient one; true when added.
bool add_pending(soci::session& session, const std::string& event_id, int64_t recipient_id,
                 const std::string& kind, const Json& payload, int64_t now);

/// When the oldest notification of the recipient not yet in a batch was recorded.
std::optional<int64_t> oldest_unbatched(soci::session& session, int64_t recipient_id);

/// The recipient's batch claimed earlier and neither sent nor given up, with its notifications.
std::optional<MailBatch> open_batch(soci::session& session, int64_t recipient_id);

/// Claims every notification of the recipient not yet in a batch into a new batch.
MailBatch claim_batch(soci::session& session, int64_t recipient_id, const std::string& message_id,
                      int64_t now);

/// Takes the batch for one sending attempt until `lease_until`; false while another attempt
/// holds it (two jobs of one recipient never send the same batch at once).
bool lease_batch(soci::session& session, int64_t batch_id, int64_t now, int64_t lease_until);

/// Gives the lease up after a failed attempt, so the retry may take the batch at once.
void release_batch(soci::session& session, int64_t batch_id);

void mark_batch_sent(soci::session& session, int64_t batch_id, int64_t now);
void mark_batch_failed(soci::session& session, int64_t batch_id, const std::string& error,
                       int64_t now);

}  // namespace loupe::notifications
