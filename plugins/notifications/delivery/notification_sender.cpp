#include "delivery/notification_sender.hpp"

#include <optional>
#include <vector>

#include "mail/message_id.hpp"
#include "message/batch_rule.hpp"
#include "message/digest_message.hpp"
#include "message/unsubscribe_token.hpp"
#include "store/notification_preferences.hpp"
#include "store/pending_notifications.hpp"

namespace loupe::notifications {
namespace {

// Unsubscribe links stay valid for a month: long enough for an old mail, short enough that a
// leaked link does not work forever.
constexpr int64_t unsubscribe_link_lifetime_ms = 30LL * 24 * 3600 * 1000;

// How long one attempt may hold a batch: more than an SMTP exchange with its timeouts takes.
constexpr int64_t batch_lease_ms = 5LL * 60 * 1000;

/// One kind when every notification of the batch is of it, else "all".
std::string kind_of_batch(const std::vector<NotificationItem>& items) {
    for (const auto& item : items) {
        if (item.kind != items.front().kind) {
            return "all";
        }
    }
    return items.empty() ? "all" : items.front().kind;
}

struct PreparedMail {
    int64_t batch_id = 0;
    std::optional<OutgoingMail> mail;  ///< none: nothing left to send (turned off, no address)
};

}  // namespace

NotificationSender::NotificationSender(Host& host, MailSettings settings)
    : host_(host), settings_(settings), mailer_(std::move(settings)) {}

void NotificationSender::install() {
    host_.jobs().handle(
        send_job_kind, [this](const Job& job) { send(job); },
        [this](const Job& job, const std::string& last_error) {
            const int64_t recipient_id = job.payload.at("recipientId").get<int64_t>();
            host_.db().transaction([&](soci::session& session) {
                if (auto batch = open_batch(session, recipient_id)) {
                    mark_batch_failed(session, batch->id, last_error, now_ms());
                }
            });
            host_.log().warn(
                "notifications.send_failed",
                {{"recipientId", std::to_string(recipient_id)}, {"error", last_error}});
        });
}

void NotificationSender::schedule(soci::session& session, int64_t recipient_id) const {
    JobOptions options;
    options.max_attempts = send_max_attempts;
    options.delay_ms = settings_.batch_window_ms;
    host_.jobs().enqueue(session, send_job_kind, Json{{"recipientId", recipient_id}}, options);
}

std::string NotificationSender::unsubscribe_url(soci::session& session, int64_t user_id,
                                                const std::string& kind) const {
    const auto token = sign_unsubscribe_token(
        unsubscribe_secret(session),
        UnsubscribeClaim{user_id, kind, now_ms() + unsubscribe_link_lifetime_ms});
    return host_.public_url() + "/_loupe/notifications/unsubscribe?token=" + token;
}

void NotificationSender::send(const Job& job) {
    const int64_t recipient_id = job.payload.at("recipientId").get<int64_t>();
    // Claim (or take up again) the recipient's batch and render its mail in one transaction.
    const auto prepared =
        host_.db().transaction([&](soci::session& session) -> std::optional<PreparedMail> {
            auto batch = open_batch(session, recipient_id);
            if (!batch) {
                const auto oldest = oldest_unbatched(session, recipient_id);
                if (!oldest) {
                    return std::nullopt;  // an earlier job mailed them
                }
                const int64_t now = now_ms();
                if (!batch_due(oldest, now, settings_.batch_window_ms)) {
                    throw JobDeferred(delay_until_due(*oldest, now, settings_.batch_window_ms),
                                      "the batch window is still open");
                }
                batch = claim_batch(session, recipient_id, new_message_id(host_.public_url()), now);
            }
            const int64_t now = now_ms();
            if (!lease_batch(session, batch->id, now, now + batch_lease_ms)) {
                throw JobDeferred(batch_lease_ms, "another job is sending this batch");
            }
            PreparedMail claimed{batch->id, std::nullopt};
            const auto address = host_.identity().user_email(session, recipient_id);
            std::vector<NotificationItem> items;
            const bool all_enabled = kind_enabled(session, recipient_id, "all");
            for (const auto& pending : batch->notifications) {
                // A kind turned off after the event arrived is not mailed either.
                if (all_enabled && kind_enabled(session, recipient_id, pending.kind)) {
                    items.push_back(item_of_payload(pending.kind, pending.payload));
                }
            }
            if (!address || items.empty()) {
                mark_batch_sent(session, batch->id, now_ms());
                return claimed;
            }
            const auto url = unsubscribe_url(session, recipient_id, kind_of_batch(items));
            const auto digest = build_digest(items, url, host_.public_url() + "/");
            claimed.mail = OutgoingMail{*address,    digest.subject,    digest.text,
                                        digest.html, batch->message_id, url};
            return claimed;
        });
    if (!prepared || !prepared->mail) {
        return;
    }
    try {
        mailer_.send(*prepared->mail);
    } catch (...) {
        host_.db().transaction(
            [&](soci::session& session) { release_batch(session, prepared->batch_id); });
        throw;
    }
    host_.db().transaction(
        [&](soci::session& session) { mark_batch_sent(session, prepared->batch_id, now_ms()); });
    host_.log().info("notifications.sent", {{"recipientId", std::to_string(recipient_id)},
                                            {"batchId", std::to_string(prepared->batch_id)}});
}

}  // namespace loupe::notifications
