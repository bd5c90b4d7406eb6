#include "loupe/http/form_body.hpp"

#include "http/percent_decoding.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {

std::map<std::string, std::string> parse_form_body(std::string_view body) {
    std::map<std::string, std::string> fields;
    while (!body.empty()) {
        const auto end = body.find('&');
        const std::string_view pair = body.substr(0, end);
        body = end == std::string_view::npos ? std::string_view{} : body.substr(end + 1);
        if (pair.empty()) {
            continue;
        }
        const auto equals = pair.find('=');
        std::string name = percent_decode(pair.substr(0, equals), true);
        std::string value = equals == std::string_view::npos
                                ? std::string()
                                : percent_decode(pair.substr(equals + 1), true);
        if (!fields.emplace(name, std::move(value)).second) {
            throw HttpError::bad_request("The field " + name + " is sent more than once");
        }
    }
    return fields;
}

}  // namespace loupe
