#include "settings/mail_settings.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/text/duration.hpp"

namespace loupe::notifications {
namespace {

MailTls parse_tls(const std::string& text) {
    if (text == "starttls") {
        return MailTls::starttls;
    }
    if (text == "tls") {
        return MailTls::tls;
    }
    if (text == "none") {
        return MailTls::none;
    }
    throw std::runtime_error("mail.tls must be starttls, tls or none (got \"" + text + "\")");
}

std::string read_password(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("mail.password_file: cannot read " + path);
    }
    std::stringstream content;
    content << in.rdbuf();
    auto password = content.str();
    // A trailing newline is the editor's, never the password's.
    while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) {
        password.pop_back();
    }
    return password;
}

}  // namespace

MailSettings read_mail_settings(const ConfigView& config) {
    MailSettings settings;
    settings.host = config.get_string("mail.host", "");
    settings.tls = parse_tls(config.get_string("mail.tls", "starttls"));
    const int64_t default_port = settings.tls == MailTls::tls ? 465 : 587;
    // An empty value (as the shipped configuration file has it) means the default port.
    const int64_t port = config.get_string("mail.port", "").empty()
                             ? default_port
                             : config.get_int("mail.port", default_port);
    if (port <= 0 || port > 65535) {
        throw std::runtime_error("mail.port must be a port number (got " + std::to_string(port) +
                                 ")");
    }
    settings.port = static_cast<int>(port);
    settings.username = config.get_string("mail.username", "");
    const auto password_file = config.get_string("mail.password_file", "");
    if (!password_file.empty()) {
        settings.password = read_password(password_file);
    }
    if (!settings.username.empty() && password_file.empty()) {
        throw std::runtime_error("mail.password_file is required with mail.username");
    }
    settings.from = config.get_string("mail.from", "");
    if (settings.enabled() && settings.from.find('@') == std::string::npos) {
        throw std::runtime_error("mail.from must be an email address (got \"" + settings.from +
                                 "\")");
    }
    const auto window = config.get_string("notifications.batch_window", "2m");
    const auto parsed = parse_duration(window);
    if (!parsed) {
        throw std::runtime_error(
            "notifications.batch_window must be a duration such as 2m or 30s "
            "(got \"" +
            window + "\")");
    }
    settings.batch_window_ms = parsed->count();
    return settings;
}

}  // namespace loupe::notifications
