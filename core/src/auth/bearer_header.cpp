#include "auth/bearer_header.hpp"

#include <vector>

#include "loupe/http/http_error.hpp"
#include "loupe/text/strings.hpp"

// The grammar is that of the `auth-header` package's parser, which Argos uses: the scheme is
// everything before the first space and must be an RFC 7230 token; the rest is scanned for
// items, each a token68 followed by whitespace or the end, or else a token, either optionally
// followed by `=value`. Items with a value are parameters (ignored); the others are tokens.
// Argos accepts the header only when exactly one token was found.

namespace loupe {
namespace {

bool is_token68_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '~' || c == '+' || c == '/' || c == '-';
}

bool is_token_char(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x1F || byte == 0x7F) {
        return false;
    }
    constexpr std::string_view separators = "()<>@,;:\\\"/?={}[] \t";
    return separators.find(c) == std::string_view::npos;
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool is_value_char(char c) {
    return c != '\\' && c != '"' && c != '=' && c != ',' && !is_space(c);
}

/// Length of the `=value` part at `at` (an unquoted value or a quoted string), 0 if none.
std::size_t value_length(std::string_view body, std::size_t at) {
    if (at >= body.size() || body[at] != '=') {
        return 0;
    }
    std::size_t end = at + 1;
    if (end < body.size() && body[end] == '"') {
        ++end;
        while (end < body.size() && body[end] != '"') {
            end += body[end] == '\\' && end + 1 < body.size() ? 2 : 1;
        }
        return end < body.size() ? end + 1 - at : 0;
    }
    while (end < body.size() && is_value_char(body[end])) {
        ++end;
    }
    return end > at + 1 ? end - at : 0;
}

/// Length of a token68 item (with its trailing whitespace) at `at`, 0 if none.
std::size_t token68_item_length(std::string_view body, std::size_t at) {
    std::size_t end = at;
    while (end < body.size() && is_token68_char(body[end])) {
        ++end;
    }
    if (end == at) {
        return 0;
    }
    while (end < body.size() && body[end] == '=') {
        ++end;
    }
    if (end < body.size() && !is_space(body[end])) {
        return 0;
    }
    while (end < body.size() && is_space(body[end])) {
        ++end;
    }
    return end - at;
}

std::size_t token_item_length(std::string_view body, std::size_t at) {
    std::size_t end = at;
    while (end < body.size() && is_token_char(body[end])) {
        ++end;
    }
    return end - at;
}

std::vector<std::string_view> bare_tokens(std::string_view body) {
    std::vector<std::string_view> tokens;
    std::size_t at = 0;
    while (at < body.size()) {
        std::size_t item = token68_item_length(body, at);
        if (item == 0) {
            item = token_item_length(body, at);
        }
        if (item == 0) {
            ++at;  // not the start of an item: the scan moves on, as a global regex does
            continue;
        }
        const std::size_t value = value_length(body, at + item);
        if (value == 0) {
            tokens.push_back(trim(body.substr(at, item)));
        }
        at += item + value;
    }
    return tokens;
}

}  // namespace

std::string parse_bearer_header(std::string_view header) {
    header = trim(header);  // HTTP parsers drop the whitespace around a field value
    const auto space = header.find(' ');
    const std::string_view scheme =
        space == std::string_view::npos ? std::string_view{} : header.substr(0, space);
    if (scheme.empty() || token_item_length(scheme, 0) != scheme.size()) {
        throw HttpError::bad_request("Invalid authorization header");
    }
    if (scheme != "Bearer") {
        throw HttpError::bad_request("Invalid authorization header scheme \"" +
                                     std::string(scheme) + "\", please use \"Bearer\"");
    }
    const auto tokens = bare_tokens(header.substr(space));
    if (tokens.size() != 1) {
        throw HttpError::bad_request("Invalid authorization header, no valid Bearer found");
    }
    return std::string(tokens.front());
}

}  // namespace loupe
