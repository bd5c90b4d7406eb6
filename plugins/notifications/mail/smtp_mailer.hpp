#pragma once
// Sends one mail through the configured SMTP server (plain, STARTTLS or implicit TLS, with
// optional authentication). Throws on any refusal or network failure, so the caller's job is
// retried.

#include <string>
#include <vector>

#include "settings/mail_settings.hpp"

namespace loupe::notifications {

struct OutgoingMail {
    std::string to;
    std::string subject;
    std::string text;
    std::string html;
    std::string message_id;       ///< "<...@host>": the same on every attempt of one batch
    std::string unsubscribe_url;  ///< for List-Unsubscribe (one-click, RFC 8058); empty: none
};

class SmtpMailer {
public:
    explicit SmtpMailer(MailSettings settings);
    void send(const OutgoingMail& mail) const;

private:
    MailSettings settings_;
};

}  // namespace loupe::notifications
