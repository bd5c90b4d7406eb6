#include "http/json_body.hpp"

#include <cstddef>
#include <string>

#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

// nlohmann's parser is iterative, but serializers and validators that walk the tree are not.
constexpr std::size_t max_nesting = 512;

bool is_json_whitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

[[noreturn]] void throw_syntax_error(std::string_view body, std::size_t position) {
    if (position >= body.size()) {
        throw HttpError::bad_request("Unexpected end of JSON input");
    }
    const auto c = static_cast<unsigned char>(body[position]);
    std::string message = "Unexpected token ";
    if (c >= 0x21 && c < 0x7f) {
        message.push_back(static_cast<char>(c));
        message.push_back(' ');
    }
    message += "in JSON at position " + std::to_string(position);
    throw HttpError::bad_request(std::move(message));
}

/// One pass over the text before it is parsed: nesting depth (400 past max_nesting) and the
/// number of values (413 past `max_values`): the root, plus one per comma and one per non-empty
/// container, outside strings.
void check_shape(std::string_view body, std::size_t max_values) {
    std::size_t depth = 0;
    std::size_t values = 1;
    bool in_string = false;
    bool escaped = false;
    char last = '\0';  // the last character outside strings and whitespace
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (is_json_whitespace(c)) {
            continue;
        }
        if ((last == '[' || last == '{') && c != ']' && c != '}') {
            ++values;  // the first element of a container
        } else if (c == ',') {
            ++values;
        }
        if (values > max_values) {
            throw HttpError(413,
                            "JSON body holds more than " + std::to_string(max_values) +
                                " values (http.max_json_values)",
                            {"Send fewer values in one request, or raise http.max_json_values"});
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > max_nesting) {
                throw HttpError::bad_request("JSON nested deeper than " +
                                             std::to_string(max_nesting) + " levels at position " +
                                             std::to_string(i));
            }
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
        last = c;
    }
}

}  // namespace

Json parse_json_body(std::string_view body, std::size_t max_values) {
    if (body.empty()) {
        return nullptr;
    }
    std::size_t first = 0;
    while (first < body.size() && is_json_whitespace(body[first])) {
        ++first;
    }
    if (first == body.size() || (body[first] != '{' && body[first] != '[')) {
        throw_syntax_error(body, first);
    }
    // The parser takes a NUL for the end of the input and would ignore whatever follows it;
    // JSON text never contains one (even inside strings it must be escaped).
    if (const std::size_t nul = body.find('\0'); nul != std::string_view::npos) {
        throw_syntax_error(body, nul);
    }
    check_shape(body, max_values);
    try {
        return Json::parse(body);
    } catch (const Json::parse_error& error) {
        // `byte` counts the characters read, the offending one included.
        throw_syntax_error(body, error.byte == 0 ? 0 : error.byte - 1);
    } catch (const Json::out_of_range&) {
        // A number past double's range (1e400): JSON.parse makes it Infinity, which no field
        // accepts, so it is refused here like any other invalid body.
        throw HttpError::bad_request("Number out of range in JSON");
    } catch (const Json::exception&) {
        throw HttpError::bad_request("Invalid JSON");
    }
}

}  // namespace loupe
