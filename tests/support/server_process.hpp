#pragma once
// Runs the real `loupe serve` binary on an ephemeral port against a fresh database and data
// folder, for tests of the process itself (start, signals, sockets, listeners, restarts, the
// environment). Stops it (SIGTERM, then SIGKILL) in the destructor. Tests of what the routes
// do use InProcessServer (support/in_process_server.hpp), which needs no process.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/test_database.hpp"
#include "support/test_server.hpp"

namespace loupe::test {

struct ServerOptions {
    std::vector<std::string> plugins = {"auth", "builds"};
    std::map<std::string, std::string> settings;  ///< extra --set key=value
    std::map<std::string, std::string> environment;
};

class ServerProcess : public TestServer {
public:
    explicit ServerProcess(ServerOptions options = {});
    ~ServerProcess() override;
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    int port() const { return port_; }
    /// http://127.0.0.1:<port>
    std::string base_url() const override;
    /// The public URL `loupe serve` printed for a plugin's extra listener ("sites" for the
    /// deployments plugin); throws when it printed none within 10 s.
    std::string listener_url(const std::string& name) const override;
    const std::string& data_dir() const override { return data_.path(); }
    const std::string& database_url() const override { return database_.url(); }
    /// Bootstrap credentials written by the first start (bootstrap.json).
    const std::string& project_token() const override { return project_token_; }
    const std::string& personal_token() const override { return personal_token_; }
    /// Everything the server printed so far (stdout and stderr).
    std::string output() const override;
    /// Runs `loupe <args>` against the same configuration; returns exit code, fills `out`.
    int run_cli(const std::vector<std::string>& args, std::string& out) const override;
    /// Kills the process with SIGKILL (crash tests).
    void kill();
    /// Kills the process if it runs and starts it again on the same database and data folder
    /// (a new port).
    void restart();
    /// The same, with another set of plugins (an upgrade that adds one).
    void restart(std::vector<std::string> plugins);

private:
    void start();
    std::vector<std::string> common_args() const;
    TestDatabase database_;
    TempDir data_;
    ServerOptions options_;
    int pid_ = -1;
    int port_ = 0;
    int starts_ = 0;
    std::string log_path_;
    std::string project_token_;
    std::string personal_token_;
};

/// The `loupe` binary and plugin folder under test. LOUPE_TEST_BINARY and
/// LOUPE_TEST_PLUGIN_DIR in the environment point the tests at another build (to show that a
/// test fails on the code before a fix).
std::string tested_binary();
std::string tested_plugin_dir();

/// The command line's options for a server with `options` on this database and data folder
/// (--config etc/loupe.properties, then --set for every key).
std::vector<std::string> config_args(const ServerOptions& options, const std::string& database_url,
                                     const std::string& data_dir);

/// Runs `loupe <args>` with --set overrides; returns the exit code, output in `out`.
int run_loupe(const std::vector<std::string>& args, std::string& out,
              const std::map<std::string, std::string>& environment = {});

}  // namespace loupe::test
