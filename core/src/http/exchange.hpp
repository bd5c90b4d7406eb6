#pragma once
// The transport side of one HTTP exchange, as the Dispatcher sees it. CivetExchange implements
// it over a civetweb connection; an in-memory one can drive the same pipeline without a socket.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "http/request_head.hpp"
#include "loupe/http/response.hpp"

namespace loupe {

class Exchange {
public:
    virtual ~Exchange() = default;

    virtual std::string_view method() const = 0;
    /// The path as received (still percent-encoded), without the query string.
    virtual std::string_view path() const = 0;
    /// The raw query string without '?'; empty when there is none.
    virtual std::string_view query_string() const = 0;
    /// The first header with this name, compared case-insensitively.
    virtual std::optional<std::string> header(std::string_view name) const = 0;
    virtual std::string remote_address() const = 0;
    /// The version and every header field as received, for the framing checks; the views stay
    /// valid until send().
    virtual RequestHead head() const = 0;

    /// The declared body length (0 without a body); nullopt for a chunked body.
    virtual std::optional<std::size_t> content_length() const = 0;
    /// Reads up to `size` body bytes; 0 at the end of the body or when the client stopped
    /// sending. A broken body (bad chunk framing, read error) throws HttpError 400.
    virtual std::size_t read(char* buffer, std::size_t size) = 0;
    /// The body's framing cannot be trusted: nothing more is read from the connection, and it
    /// closes after the answer.
    virtual void abandon_body() = 0;

    /// Sends the response (no body for `headers_only`, i.e. HEAD). `close_connection` ends the
    /// connection afterwards; an exchange also closes by itself rather than read a large unread
    /// body (a small one it reads and drops first, so the client sees the answer). Throws, before
    /// anything was written, when the body cannot be produced (a missing file); once the status
    /// line is out it never throws.
    virtual void send(const Response& response, bool headers_only, bool close_connection) = 0;
};

}  // namespace loupe
