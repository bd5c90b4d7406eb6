#pragma once
// One request held in memory, as the Dispatcher's transport (core's http/exchange.hpp): the
// request's parts in, the Response out (a file body read into memory), no socket.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/exchange.hpp"
#include "support/http_client.hpp"

namespace loupe::test {

class InProcessExchange final : public Exchange {
public:
    /// `host` is the Host header sent unless the call names one.
    InProcessExchange(const HttpCall& call, const std::string& host);

    std::string_view method() const override { return method_; }
    std::string_view path() const override { return path_; }
    std::string_view query_string() const override { return query_; }
    std::optional<std::string> header(std::string_view name) const override;
    std::string remote_address() const override { return "127.0.0.1"; }
    RequestHead head() const override;
    std::optional<std::size_t> content_length() const override { return body_.size(); }
    std::size_t read(char* buffer, std::size_t size) override;
    void abandon_body() override { read_offset_ = body_.size(); }
    void send(const Response& response, bool headers_only, bool close_connection) override;

    /// What send() answered (status 0 when nothing was sent).
    const HttpResult& result() const { return result_; }

private:
    std::string method_;
    std::string path_;
    std::string query_;
    std::string body_;
    std::size_t read_offset_ = 0;
    std::vector<std::pair<std::string, std::string>> fields_;
    HttpResult result_;
};

}  // namespace loupe::test
