// `loupe serve` on a port another program holds: it says so and exits, and it takes no job
// from the queue first (a process that never served must leave the work to the others).
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/build_paths.hpp"
#include "support/server_process.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

/// A socket listening on a free port of 127.0.0.1, closed by the destructor.
class HeldPort {
public:
    HeldPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        REQUIRE(fd_ >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(fd_, 8) == 0);
        socklen_t length = sizeof address;
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
        port_ = ntohs(address.sin_port);
    }
    ~HeldPort() { ::close(fd_); }
    HeldPort(const HeldPort&) = delete;
    HeldPort& operator=(const HeldPort&) = delete;
    int port() const { return port_; }

private:
    int fd_;
    int port_ = 0;
};

}  // namespace

TEST_CASE_FIXTURE(test::JobFixture,
                  "a server whose port is taken exits naming it, and claims no job first") {
    std::vector<int64_t> queued;
    queued.reserve(20);
    for (int i = 0; i < 20; ++i) {
        queued.push_back(enqueue("build.process", {{"buildId", 900'000 + i}}));
    }
    const HeldPort held;
    test::TempDir data;
    std::string out;
    const int status = test::run_loupe(
        {"--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties", "--set",
         "db.url=" + test_database.url(), "--set", "data.dir=" + data.path(), "--set",
         "plugins.path=" + test::tested_plugin_dir(), "--set", "plugins.enabled=auth,builds",
         "--set", "http.listen_address=127.0.0.1", "--set",
         "http.port=" + std::to_string(held.port()), "--set", "jobs.poll_ms=10", "serve"},
        out);
    INFO(out);
    CHECK(status == 1);
    CHECK(out.find("cannot start the HTTP server on 127.0.0.1:" + std::to_string(held.port())) !=
          std::string::npos);
    CHECK(out.find("Address already in use") != std::string::npos);

    auto session = database->session();
    for (const int64_t id : queued) {
        std::string job_status;
        int attempts = -1;
        *session << "SELECT status, attempts FROM jobs WHERE id = :id", soci::use(id),
            soci::into(job_status), soci::into(attempts);
        CAPTURE(id);
        CHECK(job_status == "queued");
        CHECK(attempts == 0);
    }
}

}  // namespace loupe
