#include "git_fixture.hpp"

#include <Poco/Base64Encoder.h>
#include <Poco/Crypto/RSAKey.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace loupe::test {
namespace {

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
}

std::string base64(const std::string& text) {
    std::ostringstream encoded;
    Poco::Base64Encoder encoder(encoded);
    encoder.rdbuf()->setLineLength(0);
    encoder << text;
    encoder.close();
    return encoded.str();
}

void run(const std::string& command) {
    if (std::system((command + " >/dev/null 2>&1").c_str()) != 0) {
        throw std::runtime_error("failed: " + command);
    }
}

/// A CA and a certificate for localhost/127.0.0.1 signed by it (openssl CLI).
void make_certificates(const std::string& dir) {
    run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=Loupe Test CA' -keyout " +
        dir + "/ca.key -out " + dir + "/ca.pem");
    run("openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout " + dir +
        "/server.key -out " + dir + "/server.csr");
    write_file(dir + "/ext.cnf",
               "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n");
    run("openssl x509 -req -days 2 -in " + dir + "/server.csr -CA " + dir + "/ca.pem -CAkey " +
        dir + "/ca.key -CAcreateserial -extfile " + dir + "/ext.cnf -out " + dir + "/server.pem");
}

}  // namespace

AppKeys make_app_keys() {
    Poco::Crypto::RSAKey key(Poco::Crypto::RSAKey::KL_2048, Poco::Crypto::RSAKey::EXP_LARGE);
    std::ostringstream public_pem;
    std::ostringstream private_pem;
    key.save(&public_pem, &private_pem);
    return {private_pem.str(), public_pem.str()};
}

GitServer::GitServer(GitServerOptions options) {
    static const AppKeys keys = make_app_keys();
    const auto key_file = files_.path() + "/app.pem";
    write_file(key_file, keys.private_pem);

    StandinOptions standin;
    standin.app_id = app_id;
    standin.app_public_key_pem = keys.public_pem;
    if (options.tls) {
        make_certificates(files_.path());
        standin.tls_certificate_file = files_.path() + "/server.pem";
        standin.tls_key_file = files_.path() + "/server.key";
    }
    standin_ = std::make_unique<ProviderStandin>(standin);

    ServerOptions server;
    server.plugins = options.plugins;
    server.settings = {{"github.api_url", standin_->github_url()},
                       {"github.app_id", app_id},
                       {"github.app_private_key_file", key_file},
                       {"gitlab.api_url", standin_->gitlab_url()},
                       {"gitlab.token", "glpat-standin"},
                       {"github.actions_oidc_issuer", standin_->oidc_issuer("github")},
                       {"plugins.git.timeout_ms", "2000"},
                       {"jobs.retry_base_ms", "100"},
                       {"jobs.poll_ms", "50"}};
    if (options.tls && options.trust_test_ca) {
        server.settings["plugins.git.ca_file"] = files_.path() + "/ca.pem";
    }
    for (const auto& [key, value] : options.settings) {
        server.settings[key] = value;
    }
    if (options.process) {
        server_ = std::make_unique<ServerProcess>(server);
    } else {
        server_ = std::make_unique<InProcessServer>(server);
    }
}

ServerProcess& GitServer::process() {
    auto* process = dynamic_cast<ServerProcess*>(server_.get());
    if (process == nullptr) {
        throw std::logic_error(
            "this git server runs in process: ask for GitServerOptions::process");
    }
    return *process;
}

std::string GitServer::admin(std::vector<std::string> args, int expected_code) {
    args.insert(args.begin(), "admin");
    std::string out;
    const int code = server_->run_cli(args, out);
    INFO(out);
    REQUIRE(code == expected_code);
    return out;
}

std::string github_tokenless(const nlohmann::json& payload) {
    return "tokenless-github-" + base64(payload.dump());
}

std::string gitlab_tokenless(const nlohmann::json& payload) {
    return "tokenless-gitlab-" + base64(payload.dump());
}

nlohmann::json exchange_body(const std::string& token, const std::string& commit,
                             const std::string& branch) {
    return {{"tokenlessToken", token}, {"commit", commit}, {"branch", branch}};
}

}  // namespace loupe::test
