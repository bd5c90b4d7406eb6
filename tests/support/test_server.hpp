#pragma once
// What a test needs of a running Loupe, whether it is a real `loupe serve` process
// (ServerProcess) or the same plugins loaded into the test process (InProcessServer): its base
// URL (the test HTTP client reaches either), the bootstrap credentials, its data folder and
// database, and the command line against the same configuration.

#include <string>
#include <vector>

namespace loupe::test {

class TestServer {
public:
    virtual ~TestServer() = default;

    /// Where the test HTTP client (support/http_client.hpp) reaches the server.
    virtual std::string base_url() const = 0;
    /// The public URL a plugin's extra listener printed ("sites"); throws when it has none.
    virtual std::string listener_url(const std::string& name) const = 0;
    virtual const std::string& data_dir() const = 0;
    virtual const std::string& database_url() const = 0;
    /// Bootstrap credentials written by the first start (bootstrap.json).
    virtual const std::string& project_token() const = 0;
    virtual const std::string& personal_token() const = 0;
    /// Runs `loupe <args>` against the same configuration; returns exit code, fills `out`.
    virtual int run_cli(const std::vector<std::string>& args, std::string& out) const = 0;
    /// What the server printed so far, for a failing test's message.
    virtual std::string output() const = 0;
};

}  // namespace loupe::test
