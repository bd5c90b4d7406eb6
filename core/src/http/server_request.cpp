#include "http/server_request.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "http/json_body.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

constexpr std::size_t read_chunk = 64 * 1024;

HttpError entity_too_large() {
    return {413, "request entity too large"};
}

}  // namespace

ServerRequest::ServerRequest(Exchange& exchange, Method method, std::string path,
                             std::map<std::string, std::string, std::less<>> params,
                             std::string request_id, std::size_t body_limit,
                             std::size_t max_json_values)
    : exchange_(exchange),
      method_(method),
      path_(std::move(path)),
      params_(std::move(params)),
      query_(parse_query_string(exchange.query_string())),
      request_id_(std::move(request_id)),
      body_limit_(body_limit),
      max_json_values_(max_json_values) {}

const std::string& ServerRequest::param(std::string_view name) const {
    if (const std::string* value = find_param(name)) {
        return *value;
    }
    throw std::out_of_range("the route of " + path_ + " has no {" + std::string(name) +
                            "} parameter");
}

const std::string* ServerRequest::find_param(std::string_view name) const {
    const auto found = params_.find(name);
    return found == params_.end() ? nullptr : &found->second;
}

std::optional<std::string> ServerRequest::query(std::string_view name) const {
    const auto found = query_.find(name);
    if (found == query_.end()) {
        return std::nullopt;
    }
    return found->second;
}

std::string ServerRequest::query_string() const {
    return std::string(exchange_.query_string());
}

std::size_t ServerRequest::query_count(std::string_view name) const {
    const auto [first, last] = query_.equal_range(name);
    return static_cast<std::size_t>(std::distance(first, last));
}

std::vector<std::string> ServerRequest::query_values(std::string_view name) const {
    std::vector<std::string> values;
    const auto [first, last] = query_.equal_range(name);
    for (auto it = first; it != last; ++it) {
        values.push_back(it->second);
    }
    return values;
}

std::optional<std::string> ServerRequest::header(std::string_view name) const {
    return exchange_.header(name);
}

std::string ServerRequest::remote_address() const {
    return exchange_.remote_address();
}

std::optional<std::size_t> ServerRequest::content_length() const {
    return exchange_.content_length();
}

const std::string& ServerRequest::body() {
    if (body_) {
        return *body_;
    }
    const std::optional<std::size_t> declared = exchange_.content_length();
    if (declared && *declared > body_limit_) {
        throw entity_too_large();  // without reading a byte of it
    }
    if (declared && *declared == 0) {
        body_.emplace();  // most GETs: no buffer to allocate and clear
        return *body_;
    }
    std::string data;
    std::size_t size = 0;
    while (true) {
        data.resize(size + read_chunk);
        const std::size_t count = exchange_.read(data.data() + size, read_chunk);
        if (count == 0) {
            break;
        }
        size += count;
        if (size > body_limit_) {
            throw entity_too_large();  // a chunked body that grew past the limit
        }
    }
    data.resize(size);
    if (declared && data.size() < *declared) {
        throw HttpError::bad_request("request aborted");
    }
    body_ = std::move(data);
    return *body_;
}

const Json& ServerRequest::json() {
    if (!json_) {
        json_ = parse_json_body(body(), max_json_values_);
    }
    return *json_;
}

std::size_t ServerRequest::read(char* buffer, std::size_t size) {
    if (!body_) {
        return exchange_.read(buffer, size);
    }
    const std::size_t count = std::min(size, body_->size() - body_cursor_);
    std::memcpy(buffer, body_->data() + body_cursor_, count);
    body_cursor_ += count;
    return count;
}

}  // namespace loupe
