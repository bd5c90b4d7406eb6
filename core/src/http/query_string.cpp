#include "http/query_string.hpp"

#include "http/percent_decoding.hpp"

namespace loupe {

QueryParameters parse_query_string(std::string_view query) {
    QueryParameters parameters;
    while (!query.empty()) {
        const std::size_t end = query.find('&');
        const std::string_view pair = query.substr(0, end);
        query = end == std::string_view::npos ? std::string_view{} : query.substr(end + 1);
        if (pair.empty()) {
            continue;
        }
        const std::size_t equals = pair.find('=');
        const std::string_view key = pair.substr(0, equals);
        const std::string_view value =
            equals == std::string_view::npos ? std::string_view{} : pair.substr(equals + 1);
        parameters.emplace(percent_decode(key, true), percent_decode(value, true));
    }
    return parameters;
}

}  // namespace loupe
