#pragma once
// Driving `loupe admin … --json` against a test server's database, and the users and tokens
// that tests of permissions need.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/http_client.hpp"
#include "support/server_process.hpp"

namespace loupe::test {

/// Runs `loupe admin <args> --json`, REQUIREs exit code 0 and returns the JSON it printed.
nlohmann::json admin(const TestServer& server, std::vector<std::string> args);

/// The last line of a command's output that holds a JSON object (`--json`; the command's log
/// lines share the stream), parsed; REQUIREs one.
nlohmann::json json_line(const std::string& out);

/// The first 40-character string starting with `prefix` anywhere in `value` ("" if none).
std::string find_token(const nlohmann::json& value, const std::string& prefix);

/// A user `slug` with `role` (owner | member | contributor) in team `default` and a PAT scoped
/// to `default`.
std::string member_token(const TestServer& server, const std::string& slug,
                         const std::string& role);

/// The `error` of an API answer, and its first detail's message ("" when absent).
std::string error_of(const HttpResult& result);
std::string first_detail(const HttpResult& result);

}  // namespace loupe::test
