#pragma once
// The Request a handler sees, over an Exchange. The dispatcher fills in the principal once the
// route's AuthRequirement has been enforced.

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "http/exchange.hpp"
#include "http/json_body.hpp"
#include "http/query_string.hpp"
#include "loupe/http/request.hpp"

namespace loupe {

class ServerRequest final : public Request {
public:
    ServerRequest(Exchange& exchange, Method method, std::string path,
                  std::map<std::string, std::string, std::less<>> params, std::string request_id,
                  std::size_t body_limit, std::size_t max_json_values = default_max_json_values);

    Method method() const override { return method_; }
    const std::string& path() const override { return path_; }
    const std::string& param(std::string_view name) const override;
    std::optional<std::string> query(std::string_view name) const override;
    std::size_t query_count(std::string_view name) const override;
    std::vector<std::string> query_values(std::string_view name) const override;
    std::string query_string() const override;
    std::optional<std::string> header(std::string_view name) const override;
    std::string remote_address() const override;
    const std::string& request_id() const override { return request_id_; }
    const std::string& body() override;
    const Json& json() override;
    std::size_t read(char* buffer, std::size_t size) override;
    std::optional<std::size_t> content_length() const override;
    const Principal& principal() const override { return principal_; }
    const AccessGrant& access() const override { return access_; }

    /// The capture, or nullptr when the route has none by that name.
    const std::string* find_param(std::string_view name) const;
    void set_principal(Principal principal) { principal_ = std::move(principal); }
    void set_access(AccessGrant access) { access_ = std::move(access); }

private:
    Exchange& exchange_;
    Method method_;
    std::string path_;
    std::map<std::string, std::string, std::less<>> params_;
    QueryParameters query_;
    std::string request_id_;
    std::size_t body_limit_;
    std::size_t max_json_values_;
    std::optional<std::string> body_;
    std::size_t body_cursor_ = 0;  // read() position once the body has been buffered
    std::optional<Json> json_;
    Principal principal_;
    AccessGrant access_;
};

}  // namespace loupe
