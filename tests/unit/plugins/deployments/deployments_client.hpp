#pragma once
// Helpers for driving the deployments API and the sites of a test server.

#include <optional>
#include <string>
#include <vector>

#include "support/http_client.hpp"
#include "support/server_database.hpp"
#include "support/server_process.hpp"

namespace loupe::test {

struct SiteFileSpec {
    std::string path;
    std::string bytes;
    std::string content_type = "text/html";
};

std::string sha256_hex(const std::string& bytes);

/// A server with the auth, builds and deployments plugins (and `settings` on top).
ServerOptions deployments_server_options(std::map<std::string, std::string> settings = {});

/// The request body of POST /deployments for these files (hashes computed from the bytes).
nlohmann::json deployment_body(const std::vector<SiteFileSpec>& files,
                               const std::string& branch = "feature-x");

HttpResult create_deployment(const TestServer& server, const nlohmann::json& body,
                             std::optional<std::string> token = std::nullopt);
HttpResult finalize_deployment(const TestServer& server, const std::string& id,
                               std::optional<std::string> token = std::nullopt);
/// Uploads every file the creation answer lists; REQUIREs 200 for each.
void upload_listed(const nlohmann::json& created, const std::vector<SiteFileSpec>& files);
/// Creates, uploads and finalizes; returns the finalized Deployment resource.
nlohmann::json deploy(const TestServer& server, const std::vector<SiteFileSpec>& files,
                      const std::string& branch = "feature-x",
                      nlohmann::json extra = nlohmann::json::object());

/// The path of a deployment's url on the sites listener ("/d/<slug>/", or "/d/<key>/" for a
/// private link).
std::string site_path(const nlohmann::json& deployment);
/// The sites listener's base URL (http://127.0.0.1:<port>).
std::string sites_url(const TestServer& server);
/// The sites listener's port.
int sites_port(const TestServer& server);

/// Sends `target` exactly as written (no normalisation or re-encoding) with extra header
/// lines, over a fresh connection to `port` (the API's when 0).
HttpResult raw_get(const ServerProcess& server, const std::string& target,
                   const std::vector<std::string>& header_lines = {}, int port = 0);

/// Runs a statement on the server's database (tests backdate rows with it).
void execute_sql(const TestServer& server, const std::string& sql);
/// Where the local blob store keeps `key`.
std::string blob_file(const TestServer& server, const std::string& key);

/// Runs `loupe admin <args> --json` on the server's database; REQUIREs exit code 0.
nlohmann::json admin_json(const TestServer& server, std::vector<std::string> args);

}  // namespace loupe::test
