#pragma once
// A Loupe server with the git plugin, pointed at a local GitHub/GitLab stand-in, and a GitHub
// App key pair made for the test. Shared by the git plugin's end-to-end tests.

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/admin_cli.hpp"
#include "support/http_client.hpp"
#include "support/in_process_server.hpp"
#include "support/provider_standin.hpp"
#include "support/server_process.hpp"
#include "support/test_database.hpp"

namespace loupe::test {

/// A fresh 2048-bit RSA key pair in PEM form (private: PKCS#1, as GitHub hands App keys out).
struct AppKeys {
    std::string private_pem;
    std::string public_pem;
};
AppKeys make_app_keys();

inline constexpr const char* app_id = "4242";
inline constexpr int64_t installation_id = 77;

struct GitServerOptions {
    std::map<std::string, std::string> settings;  ///< extra --set key=value
    std::vector<std::string> plugins = {"auth", "builds", "git"};
    bool tls = false;           ///< the stand-in speaks HTTPS with a certificate of a test CA
    bool trust_test_ca = true;  ///< with tls: plugins.git.ca_file names that CA
    bool process = false;       ///< a real `loupe serve` (to kill and restart it), not in process
};

class GitServer {
public:
    explicit GitServer(GitServerOptions options = {});

    ProviderStandin& standin() { return *standin_; }
    TestServer& server() { return *server_; }
    /// The server as a process (GitServerOptions::process); throws for an in-process one.
    ServerProcess& process();
    std::string url(const std::string& path) const { return server_->base_url() + path; }
    /// `loupe admin ARGS... --json`; REQUIREs exit code `expected_code`, returns the output.
    std::string admin(std::vector<std::string> args, int expected_code = 0);

private:
    TempDir files_;
    std::unique_ptr<ProviderStandin> standin_;
    std::unique_ptr<TestServer> server_;
};

/// `tokenless-github-` + base64 of the JSON, as the Argos CLI builds it.
std::string github_tokenless(const nlohmann::json& payload);
std::string gitlab_tokenless(const nlohmann::json& payload);
/// {"tokenlessToken", "commit", "branch"}.
nlohmann::json exchange_body(const std::string& token, const std::string& commit,
                             const std::string& branch);

}  // namespace loupe::test
