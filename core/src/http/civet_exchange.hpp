#pragma once
// Exchange over one civetweb connection: the request as civetweb parsed it (with decode_url=no,
// so the path is still percent-encoded), the body through mg_read (Content-Length or chunked),
// and the response written by hand (status line, Date, Connection, Content-Length).

#include "http/connection_guard.hpp"
#include "http/exchange.hpp"

struct mg_connection;
struct mg_request_info;

namespace loupe {

/// The endpoints of the connection a request arrived on, as the ConnectionGuard names them.
ConnectionEndpoints endpoints_of(const mg_request_info& info);

/// Writes an in-memory response on a connection that has no usable request (civetweb's own
/// errors) and makes civetweb close it afterwards.
void send_and_close(mg_connection* connection, const Response& response);

class CivetExchange final : public Exchange {
public:
    /// `guard` (may be null) bounds the time each body read may wait.
    CivetExchange(mg_connection* connection, ConnectionGuard* guard);

    std::string_view method() const override;
    std::string_view path() const override;
    std::string_view query_string() const override;
    std::optional<std::string> header(std::string_view name) const override;
    std::string remote_address() const override;
    RequestHead head() const override;
    std::optional<std::size_t> content_length() const override;
    std::size_t read(char* buffer, std::size_t size) override;
    void abandon_body() override;
    void send(const Response& response, bool headers_only, bool close_connection) override;

private:
    bool body_complete() const;
    /// Reads and drops a small unread body so the client gets to read the answer; false if
    /// the body is too large for that or the client is still waiting for "100 Continue".
    bool discard_small_body();
    bool client_allows_keep_alive() const;
    void send_continue_if_expected();

    mg_connection* connection_;
    const mg_request_info* info_;
    ConnectionGuard* guard_;
    bool chunked_ = false;
    std::size_t declared_length_ = 0;  // when not chunked
    std::size_t consumed_ = 0;
    bool at_end_ = false;
    bool broken_ = false;  // the body ended early or its framing is bad: close after answering
    bool expects_continue_ = false;
};

}  // namespace loupe
