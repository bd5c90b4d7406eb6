#include "http/request_head.hpp"

#include <algorithm>

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

bool is_decimal_length(std::string_view text) {
    // 18 digits always fit an int64; a body that large is refused long before by the limits.
    return !text.empty() && text.size() <= 18 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<HeadProblem> check_request_head(const RequestHead& head) {
    if (head.target_length > max_request_target_bytes) {
        return HeadProblem{414, "URI Too Long"};
    }
    if (head.fields_truncated || head.field_bytes > max_request_field_bytes) {
        return HeadProblem{431, "Request Header Fields Too Large"};
    }
    std::vector<std::string_view> lengths;
    std::vector<std::string_view> codings;
    for (const auto& [name, value] : head.fields) {
        if (equals_ignoring_case(name, "Content-Length")) {
            lengths.push_back(trim(value, http_whitespace));
        } else if (equals_ignoring_case(name, "Transfer-Encoding")) {
            codings.push_back(trim(value, http_whitespace));
        }
    }
    if (!lengths.empty() && !codings.empty()) {
        return HeadProblem{
            400, "Content-Length and Transfer-Encoding together make the body length ambiguous"};
    }
    if (!codings.empty()) {
        if (head.http_version != "1.1") {
            return HeadProblem{400, "Transfer-Encoding needs HTTP/1.1"};
        }
        if (codings.size() > 1 || !equals_ignoring_case(codings.front(), "chunked")) {
            return HeadProblem{400, "Transfer-Encoding must be one \"chunked\""};
        }
    }
    if (lengths.size() > 1) {
        return HeadProblem{400, "Content-Length must be sent once"};
    }
    if (!lengths.empty() && !is_decimal_length(lengths.front())) {
        return HeadProblem{400, "Content-Length must be a decimal number of bytes"};
    }
    return std::nullopt;
}

}  // namespace loupe
