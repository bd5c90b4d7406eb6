#include "db/database_url.hpp"

#include <cctype>
#include <stdexcept>
#include <utility>
#include <vector>

namespace loupe {
namespace {

bool starts_with(const std::string& text, std::string_view prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

void mask_user_info_password(std::string& url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) {
        return;
    }
    const auto authority_start = scheme_end + 3;
    auto authority_end = url.find_first_of("/?#", authority_start);
    if (authority_end == std::string::npos) {
        authority_end = url.size();
    }
    const auto at = url.rfind('@', authority_end);
    if (at == std::string::npos || at < authority_start) {
        return;
    }
    const auto colon = url.find(':', authority_start);
    if (colon != std::string::npos && colon < at) {
        url.replace(colon + 1, at - colon - 1, "***");
    }
}

void mask_password_parameters(std::string& url) {
    std::size_t position = 0;
    while ((position = url.find("password", position)) != std::string::npos) {
        auto value = position + 8;
        while (value < url.size() && url[value] == ' ') {
            ++value;
        }
        if (value >= url.size() || url[value] != '=') {
            position = value;
            continue;
        }
        ++value;
        while (value < url.size() && url[value] == ' ') {
            ++value;
        }
        auto end = value;
        if (end < url.size() && url[end] == '\'') {
            end = url.find('\'', end + 1);
            end = end == std::string::npos ? url.size() : end + 1;
        } else {
            end = url.find_first_of(" &#", end);
            end = end == std::string::npos ? url.size() : end;
        }
        url.replace(value, end - value, "***");
        position = value + 3;
    }
}

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string percent_encoded(const std::string& text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string encoded;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
            encoded += c;
        } else {
            encoded += '%';
            encoded += hex[byte >> 4];
            encoded += hex[byte & 0xf];
        }
    }
    return encoded;
}

/// The key=value pairs of a libpq conninfo string, read as libpq reads them: a value is
/// unquoted or in single quotes, and a backslash escapes the next character.
std::vector<std::pair<std::string, std::string>> conninfo_pairs(const std::string& conninfo) {
    std::vector<std::pair<std::string, std::string>> pairs;
    std::size_t i = 0;
    const auto skip_blanks = [&] {
        while (i < conninfo.size() && is_blank(conninfo[i])) {
            ++i;
        }
    };
    while (true) {
        skip_blanks();
        if (i >= conninfo.size()) {
            return pairs;
        }
        std::string key;
        while (i < conninfo.size() && !is_blank(conninfo[i]) && conninfo[i] != '=') {
            key += conninfo[i++];
        }
        skip_blanks();
        if (i >= conninfo.size() || conninfo[i] != '=') {
            throw std::runtime_error("missing \"=\" after \"" + key + "\"");
        }
        ++i;
        skip_blanks();
        std::string value;
        const bool quoted = i < conninfo.size() && conninfo[i] == '\'';
        i += quoted ? 1 : 0;
        while (true) {
            if (i >= conninfo.size()) {
                if (quoted) {
                    throw std::runtime_error("unterminated quoted value of \"" + key + "\"");
                }
                break;
            }
            const char c = conninfo[i++];
            if (quoted ? c == '\'' : is_blank(c)) {
                break;
            }
            if (c == '\\' && i < conninfo.size()) {
                value += conninfo[i++];
            } else {
                value += c;
            }
        }
        pairs.emplace_back(std::move(key), std::move(value));
    }
}

// SOCI 4.0's PostgreSQL backend re-tokenizes its connect string on blanks and "=" (to take out
// its own "singlerow" option) and glues the pieces back as key=value: a URI without "=" gains
// a trailing "=" (database "loupe="), and a quoted value with blanks is cut apart. A URI that
// holds an "=" and no blank comes through unchanged, so every target is handed over as one.
std::string soci_safe_uri(std::string uri) {
    if (uri.find('=') == std::string::npos) {
        uri += uri.find('?') == std::string::npos ? "?" : "&";
        uri += "application_name=loupe";
    }
    return uri;
}

std::string conninfo_as_uri(const std::string& conninfo) {
    std::string uri = "postgresql://";
    char separator = '?';
    bool has_application_name = false;
    for (const auto& [key, value] : conninfo_pairs(conninfo)) {
        uri += separator + percent_encoded(key) + "=" + percent_encoded(value);
        separator = '&';
        has_application_name = has_application_name || key == "application_name";
    }
    if (!has_application_name) {
        uri += separator + std::string("application_name=loupe");
    }
    return uri;
}

}  // namespace

DatabaseTarget parse_database_url(const std::string& url) {
    if (starts_with(url, "sqlite:")) {
        auto path = url.substr(7);
        if (starts_with(path, "//")) {  // tolerate sqlite:///abs/path and sqlite://rel/path
            path = path.substr(2);
        }
        if (path.empty()) {
            throw std::runtime_error("database URL '" + url + "' names no file (sqlite:<path>)");
        }
        return {Dialect::sqlite, path};
    }
    if (starts_with(url, "postgresql://") || starts_with(url, "postgres://")) {
        return {Dialect::postgresql, soci_safe_uri(url)};
    }
    if (starts_with(url, "postgresql:")) {
        try {
            return {Dialect::postgresql, conninfo_as_uri(url.substr(11))};
        } catch (const std::runtime_error& error) {
            throw std::runtime_error("invalid PostgreSQL conninfo in database URL '" +
                                     mask_database_url(url) + "': " + error.what());
        }
    }
    throw std::runtime_error("unsupported database URL '" + mask_database_url(url) +
                             "': expected sqlite:<path>, postgresql://user:password@host:port/db"
                             " or postgresql:<libpq conninfo>");
}

std::string mask_database_url(const std::string& url) {
    auto masked = url;
    mask_user_info_password(masked);
    mask_password_parameters(masked);
    return masked;
}

}  // namespace loupe
