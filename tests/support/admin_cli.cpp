#include "support/admin_cli.hpp"

#include <doctest/doctest.h>

namespace loupe::test {

std::string find_token(const nlohmann::json& value, const std::string& prefix) {
    if (value.is_string() && value.get<std::string>().size() == 40 &&
        value.get<std::string>().rfind(prefix, 0) == 0) {
        return value.get<std::string>();
    }
    if (value.is_structured()) {
        for (const auto& item : value) {
            auto token = find_token(item, prefix);
            if (!token.empty()) {
                return token;
            }
        }
    }
    return "";
}

nlohmann::json admin(const TestServer& server, std::vector<std::string> args) {
    args.insert(args.begin(), "admin");
    args.push_back("--json");
    std::string out;
    int code = server.run_cli(args, out);
    INFO(out);
    REQUIRE(code == 0);
    auto start = out.find('{');
    REQUIRE(start != std::string::npos);
    return nlohmann::json::parse(out.substr(start, out.rfind('}') - start + 1));
}

nlohmann::json json_line(const std::string& out) {
    const auto after_newline = out.rfind("\n{");
    const auto start = after_newline != std::string::npos ? after_newline + 1
                       : out.rfind('{', 0) == 0           ? 0
                                                          : std::string::npos;
    INFO(out);
    REQUIRE(start != std::string::npos);
    return nlohmann::json::parse(out.substr(start, out.find('\n', start) - start));
}

std::string member_token(const TestServer& server, const std::string& slug,
                         const std::string& role) {
    admin(server, {"user", "create", "--slug", slug, "--name", slug});
    admin(server, {"member", "add", "--account", "default", "--user", slug, "--role", role});
    auto token = find_token(
        admin(server, {"token", "create", "--user", slug, "--account", "default"}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

std::string error_of(const HttpResult& result) {
    const auto body = result.json();
    return body.is_object() ? body.value("error", "") : "";
}

std::string first_detail(const HttpResult& result) {
    auto body = result.json();
    if (!body.contains("details") || body["details"].empty()) {
        return "";
    }
    return body["details"][0].value("message", "");
}

}  // namespace loupe::test
