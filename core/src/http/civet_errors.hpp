#pragma once
// The errors civetweb answers by itself, before any handler runs (a head it cannot parse or
// that is too large, a bad Content-Length, an unknown method, an HTTP version it does not
// speak), rewritten into the Argos JSON error shape with the status RFC 9110 gives them.

struct mg_connection;

namespace loupe {

/// civetweb's http_error callback: answers `status` as JSON and returns 0 (handled).
int answer_civetweb_error(mg_connection* connection, int status, const char* message) noexcept;

/// Answers `status` with `message` as JSON and closes; returns 0 (handled, for civetweb).
int answer_error_and_close(mg_connection* connection, int status, const char* message) noexcept;

/// The status and message a client gets for civetweb's (`status`, `message`), given the
/// method of the request line when civetweb got that far (nullptr otherwise).
struct CivetErrorAnswer {
    int status;
    const char* message;
};
CivetErrorAnswer civetweb_error_answer(int status, const char* message, const char* method);

}  // namespace loupe
