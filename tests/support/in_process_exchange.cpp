#include "support/in_process_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "loupe/text/strings.hpp"

namespace loupe::test {
namespace {

/// The body of a response that streams a file: its bytes from file_offset, file_length of them
/// (to the end when unset), as the core's transport sends them.
std::string file_body(const Response& response) {
    std::ifstream in(response.file_path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("the response's file cannot be read: " + response.file_path);
    }
    in.seekg(static_cast<std::streamoff>(response.file_offset));
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (response.file_length && *response.file_length < bytes.size()) {
        bytes.resize(*response.file_length);
    }
    return bytes;
}

}  // namespace

InProcessExchange::InProcessExchange(const HttpCall& call, const std::string& host)
    : method_(call.method), body_(call.body) {
    // The target as sent on the wire (what follows scheme://host, still percent-encoded), split
    // at its first '?'.
    const auto authority = call.url.find("//");
    const auto target_start =
        authority == std::string::npos ? std::string::npos : call.url.find('/', authority + 2);
    const std::string target =
        target_start == std::string::npos ? "/" : call.url.substr(target_start);
    const auto question = target.find('?');
    path_ = target.substr(0, question);
    query_ = question == std::string::npos ? "" : target.substr(question + 1);
    bool has_host = false;
    for (const auto& [name, value] : call.headers) {
        has_host = has_host || equals_ignoring_case(name, "host");
    }
    if (!has_host) {
        fields_.emplace_back("Host", host);
    }
    if (call.bearer) {
        fields_.emplace_back("Authorization", "Bearer " + *call.bearer);
    }
    for (const auto& [name, value] : call.headers) {
        fields_.emplace_back(name, value);
    }
    // As the socket client does: a body, or a method that carries one, says its type and length.
    if (!body_.empty() || method_ == "POST" || method_ == "PUT" || method_ == "PATCH") {
        fields_.emplace_back("Content-Type", call.content_type);
        fields_.emplace_back("Content-Length", std::to_string(body_.size()));
    }
}

std::optional<std::string> InProcessExchange::header(std::string_view name) const {
    for (const auto& [field, value] : fields_) {
        if (equals_ignoring_case(field, name)) {
            return value;
        }
    }
    return std::nullopt;
}

RequestHead InProcessExchange::head() const {
    RequestHead head;
    head.http_version = "1.1";
    head.target_length = path_.size() + (query_.empty() ? 0 : query_.size() + 1);
    for (const auto& [name, value] : fields_) {
        head.fields.emplace_back(name, value);
        head.field_bytes += name.size() + value.size();
    }
    return head;
}

std::size_t InProcessExchange::read(char* buffer, std::size_t size) {
    const std::size_t count = std::min(size, body_.size() - read_offset_);
    std::memcpy(buffer, body_.data() + read_offset_, count);
    read_offset_ += count;
    return count;
}

void InProcessExchange::send(const Response& response, bool headers_only,
                             bool /*close_connection*/) {
    HttpResult result;
    result.status = response.status;
    // As the socket's transport: no body for HEAD, 1xx, 204 and 304; the framing headers are
    // its own, never the handler's.
    const bool has_body =
        response.status >= 200 && response.status != 204 && response.status != 304;
    const std::string body = !has_body                    ? std::string()
                             : response.file_path.empty() ? response.body
                                                          : file_body(response);
    if (has_body) {
        result.headers.emplace("content-length", std::to_string(body.size()));
    }
    if (!headers_only) {
        result.body = body;
    }
    for (const auto& [name, value] : response.headers) {
        if (equals_ignoring_case(name, "content-length") ||
            equals_ignoring_case(name, "transfer-encoding") ||
            equals_ignoring_case(name, "connection")) {
            continue;
        }
        // A header sent several times (Set-Cookie) keeps every value, one per line.
        auto [it, inserted] = result.headers.emplace(to_lower(name), value);
        if (!inserted) {
            it->second += "\n" + value;
        }
    }
    result_ = std::move(result);
}

}  // namespace loupe::test
