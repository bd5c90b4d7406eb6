#include "deployments_client.hpp"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <doctest/doctest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <algorithm>
#include <sstream>

#include "loupe/crypto/digest.hpp"

namespace loupe::test {

std::string sha256_hex(const std::string& bytes) {
    return crypto::sha256_hex(bytes);
}

ServerOptions deployments_server_options(std::map<std::string, std::string> settings) {
    ServerOptions options;
    options.plugins = {"auth", "builds", "deployments"};
    options.settings = std::move(settings);
    return options;
}

nlohmann::json deployment_body(const std::vector<SiteFileSpec>& files, const std::string& branch) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& file : files) {
        list.push_back({{"path", file.path},
                        {"hash", sha256_hex(file.bytes)},
                        {"size", file.bytes.size()},
                        {"contentType", file.content_type}});
    }
    return {{"commit", std::string(40, 'c')}, {"branch", branch}, {"files", list}};
}

HttpResult create_deployment(const TestServer& server, const nlohmann::json& body,
                             std::optional<std::string> token) {
    return http_json("POST", server.base_url() + "/v2/deployments", body,
                     token ? *token : server.project_token());
}

HttpResult finalize_deployment(const TestServer& server, const std::string& id,
                               std::optional<std::string> token) {
    return http(HttpCall{"POST",
                         server.base_url() + "/v2/deployments/" + id + "/finalize",
                         "",
                         "application/json",
                         token ? *token : server.project_token(),
                         {}});
}

void upload_listed(const nlohmann::json& created, const std::vector<SiteFileSpec>& files) {
    for (const auto& target : created["uploadFiles"]) {
        const auto file = std::find_if(files.begin(), files.end(),
                                       [&](const auto& f) { return f.path == target["path"]; });
        REQUIRE(file != files.end());
        CHECK(target["hash"] == sha256_hex(file->bytes));
        const auto result = http(HttpCall{"PUT",
                                          target["uploadUrl"].get<std::string>(),
                                          file->bytes,
                                          file->content_type,
                                          std::nullopt,
                                          {}});
        INFO(result.body);
        REQUIRE(result.status == 200);
    }
}

nlohmann::json deploy(const TestServer& server, const std::vector<SiteFileSpec>& files,
                      const std::string& branch, nlohmann::json extra) {
    auto body = deployment_body(files, branch);
    body.update(extra);
    const auto created = create_deployment(server, body);
    INFO(created.body);
    REQUIRE(created.status == 201);
    upload_listed(created.json(), files);
    const auto finalized =
        finalize_deployment(server, created.json()["deploymentId"].get<std::string>());
    INFO(finalized.body);
    REQUIRE(finalized.status == 200);
    return finalized.json();
}

std::string site_path(const nlohmann::json& deployment) {
    std::string url = deployment["url"].get<std::string>();
    url = url.substr(0, url.find('?'));
    const auto start = url.find("/d/");
    REQUIRE(start != std::string::npos);
    return url.substr(start);
}

std::string sites_url(const TestServer& server) {
    return server.listener_url("sites");
}

int sites_port(const TestServer& server) {
    const std::string url = sites_url(server);
    return std::stoi(url.substr(url.rfind(':') + 1));
}

HttpResult raw_get(const ServerProcess& server, const std::string& target,
                   const std::vector<std::string>& header_lines, int port) {
    const int target_port = port != 0 ? port : server.port();
    Poco::Net::StreamSocket socket(Poco::Net::SocketAddress("127.0.0.1", target_port));
    socket.setReceiveTimeout(Poco::Timespan(30, 0));
    std::string request = "GET " + target + " HTTP/1.1\r\n";
    bool has_host = false;
    for (const auto& line : header_lines) {
        has_host = has_host || line.rfind("Host:", 0) == 0;
        request += line + "\r\n";
    }
    if (!has_host) {
        request += "Host: 127.0.0.1:" + std::to_string(target_port) + "\r\n";
    }
    request += "Connection: close\r\n\r\n";
    socket.sendBytes(request.data(), static_cast<int>(request.size()));
    std::string raw;
    char buffer[16384];
    while (true) {
        const int count = socket.receiveBytes(buffer, sizeof buffer);
        if (count <= 0) {
            break;
        }
        raw.append(buffer, static_cast<std::size_t>(count));
    }
    HttpResult result;
    const auto head_end = raw.find("\r\n\r\n");
    REQUIRE(head_end != std::string::npos);
    std::istringstream head(raw.substr(0, head_end));
    std::string line;
    std::getline(head, line);
    result.status = std::stoi(line.substr(9, 3));
    while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        result.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
    }
    result.body = raw.substr(head_end + 4);
    return result;
}

void execute_sql(const TestServer& server, const std::string& sql) {
    auto db = open_server_database(server);
    *db << sql;
}

std::string blob_file(const TestServer& server, const std::string& key) {
    return server.data_dir() + "/blobs/" + key.substr(0, 2) + "/" + key.substr(2, 2) + "/" + key;
}

nlohmann::json admin_json(const TestServer& server, std::vector<std::string> args) {
    args.insert(args.begin(), "admin");
    args.push_back("--json");
    std::string out;
    const int code = server.run_cli(args, out);
    INFO(out);
    REQUIRE(code == 0);
    const auto start = out.find('{');
    REQUIRE(start != std::string::npos);
    return nlohmann::json::parse(out.substr(start, out.rfind('}') - start + 1));
}

}  // namespace loupe::test
