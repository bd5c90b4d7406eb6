#pragma once
// The job that mails a recipient's pending notifications ("notifications.send", payload
// {"recipientId"}): once the oldest of them waited the batch window, all of them are claimed
// into one batch in a transaction, mailed, and the batch marked sent. A retried job resends the
// batch it claimed (same Message-ID) until the SMTP server accepts it, and never a batch it
// marked sent; after the last attempt the batch is marked failed.

#include <cstdint>
#include <string>

#include "loupe/host.hpp"
#include "mail/smtp_mailer.hpp"
#include "settings/mail_settings.hpp"

namespace loupe::notifications {

inline constexpr const char* send_job_kind = "notifications.send";
inline constexpr int send_max_attempts = 6;

class NotificationSender {
public:
    NotificationSender(Host& host, MailSettings settings);
    /// Registers the job handler (install() only).
    void install();
    /// Enqueues, in the caller's transaction, the job that mails `recipient_id`'s batch once the
    /// window after `recorded_at` passed.
    void schedule(soci::session& session, int64_t recipient_id) const;

private:
    void send(const Job& job);
    std::string unsubscribe_url(soci::session& session, int64_t user_id,
                                const std::string& kind) const;

    Host& host_;
    MailSettings settings_;
    SmtpMailer mailer_;
};

}  // namespace loupe::notifications
