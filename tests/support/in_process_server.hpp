#pragma once
// The real plugins (.so files from the build) loaded into the test process around one Runtime,
// answering requests through the server's own Dispatcher without a socket: the same routes,
// authentication, access gate, JSON limits, error bodies and job workers as `loupe serve`, at
// the cost of a Runtime instead of a process start. The test HTTP client
// (support/http_client.hpp) sends a request whose URL starts with base_url() here instead of
// over TCP, so a test and its helpers work unchanged on either kind of server.
//
// A plugin's extra listener (the deployments plugin's sites) is served the same way at a base
// URL of its own (listener_url()), with its own routes and no authentication, as `loupe serve`
// serves it.
//
// Use ServerProcess instead for what only a process has: its start and exit, signals, sockets
// (slow clients, framing), restarts, an environment of its own, its log.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/http_client.hpp"
#include "support/server_process.hpp"
#include "support/test_database.hpp"
#include "support/test_server.hpp"

namespace loupe {
class Dispatcher;
}

namespace loupe::test {

class InProcessServer : public TestServer {
public:
    /// Starts as `loupe serve` does: plugins loaded and migrated, the bootstrap created, the
    /// ready hooks run, the job workers started. `options.environment` must be empty (a process
    /// has one of its own; this one shares the test's).
    explicit InProcessServer(ServerOptions options = {});
    /// Stops the job workers, runs the shutdown hooks and unloads the plugins.
    ~InProcessServer() override;
    InProcessServer(const InProcessServer&) = delete;
    InProcessServer& operator=(const InProcessServer&) = delete;

    /// http://loupe-<N>.in-process.test: a host no resolver knows, answered in this process.
    std::string base_url() const override { return base_url_; }
    /// http://<listener>-<N>.in-process.test (or the spec's public URL); throws for a listener
    /// no enabled plugin registered.
    std::string listener_url(const std::string& name) const override;
    const std::string& data_dir() const override { return data_.path(); }
    const std::string& database_url() const override { return database_.url(); }
    const std::string& project_token() const override { return project_token_; }
    const std::string& personal_token() const override { return personal_token_; }
    /// Runs the `loupe` binary (a process of its own) against the same database and folder.
    int run_cli(const std::vector<std::string>& args, std::string& out) const override;

    /// Its log goes to the test's own standard error: says so.
    std::string output() const override;

private:
    struct Endpoint;
    struct Parts;
    TestDatabase database_;
    TempDir data_;
    ServerOptions options_;
    std::string base_url_;
    std::string project_token_;
    std::string personal_token_;
    std::map<std::string, std::string> listener_urls_;
    std::unique_ptr<Parts> parts_;
};

/// One base URL's request pipeline in this process.
struct InProcessEndpoint {
    const Dispatcher* dispatcher = nullptr;
    /// Answers `call` through the dispatcher, on the calling thread.
    HttpResult handle(const std::string& base_url, const HttpCall& call) const;
};

/// The answer of the in-process server whose base URL (the API's or a listener's) `call.url`
/// starts with, or nullopt when no such server runs (a real socket's URL).
std::optional<HttpResult> answer_in_process(const HttpCall& call);

}  // namespace loupe::test
