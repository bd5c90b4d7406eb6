#include "http/civet_errors.hpp"

#include <civetweb.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "http/civet_exchange.hpp"
#include "http/error_response.hpp"

namespace loupe {
namespace {

/// The methods civetweb 1.15 parses; it refuses any other token with its generic 400.
constexpr std::string_view civetweb_methods[] = {
    "GET",   "POST",     "PUT",   "DELETE", "HEAD",   "OPTIONS",   "CONNECT",
    "PATCH", "PROPFIND", "MKCOL", "LOCK",   "UNLOCK", "PROPPATCH", "REPORT",
};

bool is_token(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
    });
}

}  // namespace

CivetErrorAnswer civetweb_error_answer(int status, const char* message, const char* method) {
    const std::string_view text = message ? message : "";
    if (status == 413 && text == "Message too large") {
        return {431, "Request Header Fields Too Large"};  // the head outgrew civetweb's buffer
    }
    if (status == 400 && text == "Malformed message") {
        // A head cut short, with bytes no head may contain, or overflowing civetweb's buffer.
        return {400, "Malformed request head"};
    }
    if (status == 411) {
        return {400, "Content-Length must be a decimal number of bytes"};  // negative or empty
    }
    if (status == 400 && text == "Bad request" && method != nullptr && is_token(method) &&
        std::find(std::begin(civetweb_methods), std::end(civetweb_methods), method) ==
            std::end(civetweb_methods)) {
        return {501, "Not Implemented"};
    }
    if (status == 505) {
        return {505, "HTTP Version Not Supported"};
    }
    if (status >= 500) {
        return {status, "Internal server error"};
    }
    return {status, text.empty() ? "Bad request" : message};
}

int answer_error_and_close(mg_connection* connection, int status, const char* message) noexcept {
    try {
        send_and_close(connection, error_response(status, message));
    } catch (...) {  // nothing may unwind into civetweb's C frames; the connection just closes
    }
    return 0;
}

int answer_civetweb_error(mg_connection* connection, int status, const char* message) noexcept {
    const mg_request_info* info = mg_get_request_info(connection);
    const CivetErrorAnswer answer =
        civetweb_error_answer(status, message, info ? info->request_method : nullptr);
    return answer_error_and_close(connection, answer.status, answer.message);
}

}  // namespace loupe
