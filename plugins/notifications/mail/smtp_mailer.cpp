#include "mail/smtp_mailer.hpp"

#include <Poco/Net/Context.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureSMTPClientSession.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StringPartSource.h>

#include <mutex>
#include <stdexcept>

namespace loupe::notifications {
namespace {

Poco::Net::Context::Ptr client_tls_context() {
    static std::once_flag initialized;
    std::call_once(initialized, [] { Poco::Net::initializeSSL(); });
    // The system's certificate authorities, the server's certificate checked.
    return new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "",
                                  Poco::Net::Context::VERIFY_RELAXED, 9, true);
}

void fill_message(Poco::Net::MailMessage& message, const MailSettings& settings,
                  const OutgoingMail& mail) {
    message.setSender(settings.from);
    message.addRecipient(
        Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, mail.to));
    message.setSubject(Poco::Net::MailMessage::encodeWord(mail.subject, "UTF-8"));
    message.set("Message-ID", mail.message_id);
    // A mail someone asked for one by one (an invite) has nothing to unsubscribe from.
    if (!mail.unsubscribe_url.empty()) {
        message.set("List-Unsubscribe", "<" + mail.unsubscribe_url + ">");
        message.set("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
    }
    message.set("Auto-Submitted", "auto-generated");
    message.setContentType("multipart/alternative");
    message.addPart("text", new Poco::Net::StringPartSource(mail.text, "text/plain; charset=UTF-8"),
                    Poco::Net::MailMessage::CONTENT_INLINE,
                    Poco::Net::MailMessage::ENCODING_QUOTED_PRINTABLE);
    message.addPart("html", new Poco::Net::StringPartSource(mail.html, "text/html; charset=UTF-8"),
                    Poco::Net::MailMessage::CONTENT_INLINE,
                    Poco::Net::MailMessage::ENCODING_QUOTED_PRINTABLE);
}

void authenticate(Poco::Net::SMTPClientSession& session, const MailSettings& settings) {
    if (settings.username.empty()) {
        session.login();
    } else {
        session.login(Poco::Net::SMTPClientSession::AUTH_PLAIN, settings.username,
                      settings.password);
    }
}

}  // namespace

SmtpMailer::SmtpMailer(MailSettings settings) : settings_(std::move(settings)) {}

void SmtpMailer::send(const OutgoingMail& mail) const {
    const Poco::Timespan timeout(settings_.connect_timeout_ms * 1000);
    const Poco::Net::SocketAddress address(settings_.host,
                                           static_cast<Poco::UInt16>(settings_.port));
    Poco::Net::MailMessage message;
    fill_message(message, settings_, mail);
    try {
        if (settings_.tls == MailTls::tls) {
            Poco::Net::SecureStreamSocket socket(client_tls_context());
            socket.setPeerHostName(settings_.host);
            socket.connect(address, timeout);
            Poco::Net::SMTPClientSession session(socket);
            session.setTimeout(timeout);
            authenticate(session, settings_);
            session.sendMessage(message);
            session.close();
            return;
        }
        Poco::Net::StreamSocket socket;
        socket.connect(address, timeout);
        Poco::Net::SecureSMTPClientSession session(socket);
        session.setTimeout(timeout);
        if (settings_.tls == MailTls::starttls) {
            session.login();
            if (!session.startTLS(client_tls_context())) {
                throw std::runtime_error("the SMTP server does not offer STARTTLS");
            }
        }
        authenticate(session, settings_);
        session.sendMessage(message);
        session.close();
    } catch (const Poco::Exception& error) {
        throw std::runtime_error("SMTP " + settings_.host + ":" + std::to_string(settings_.port) +
                                 ": " + error.displayText());
    }
}

}  // namespace loupe::notifications
