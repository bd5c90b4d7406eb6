#pragma once
// The mail settings of the core configuration (`mail.*`) and the batching window
// (`notifications.batch_window`). No `mail.host`: nothing is sent.

#include <cstdint>
#include <string>

#include "loupe/config/config_view.hpp"

namespace loupe::notifications {

enum class MailTls { none, starttls, tls };

struct MailSettings {
    std::string host;  ///< empty: mail is off
    int port = 587;
    MailTls tls = MailTls::starttls;
    std::string username;
    std::string password;
    std::string from;
    int64_t batch_window_ms = 120'000;
    int64_t connect_timeout_ms = 30'000;
    bool enabled() const { return !host.empty(); }
};

/// Reads and checks the settings; std::runtime_error naming the key on a wrong value.
MailSettings read_mail_settings(const ConfigView& config);

}  // namespace loupe::notifications
