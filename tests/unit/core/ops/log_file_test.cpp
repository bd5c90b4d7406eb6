// log.file: `loupe serve` writes its log to the file (private to its user) instead of stderr,
// and SIGHUP reopens the path, as logrotate expects: lines written before the signal stay in
// the moved file, lines after it go to the new one, and the server keeps serving.
#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/build_paths.hpp"
#include "support/http_client.hpp"
#include "support/process_exit.hpp"
#include "support/server_process.hpp"
#include "unit/core/jobs/job_fixture.hpp"

using namespace loupe::test;

namespace {

std::string contents(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool contains(const std::string& path, const std::string& text) {
    return contents(path).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("log.file: the server logs to the file, and SIGHUP reopens it after a rotation") {
    namespace fs = std::filesystem;
    TempDir logs;
    const std::string path = logs.path() + "/loupe.log";
    const std::string rotated = path + ".1";
    ServerProcess server(ServerOptions{{"auth"}, {{"log.file", path}}, {}});
    CHECK(contains(path, "event=http.listening"));
    CHECK(server.output().find("loupe: listening on") != std::string::npos);  // stdout
    CHECK(server.output().find("event=http.listening") == std::string::npos);
    const auto permissions = fs::status(path).permissions();
    CHECK((permissions & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);

    REQUIRE(http_get(server.base_url() + "/healthz").status == 200);
    CHECK(wait_until([&] { return contains(path, "path=/healthz"); }));

    fs::rename(path, rotated);  // what logrotate does first
    const int pid = served_pid(server.output());
    REQUIRE(::kill(pid, SIGHUP) == 0);
    CHECK(wait_until([&] { return contains(path, "event=log.reopened"); }));
    REQUIRE(http_get(server.base_url() + "/readyz").status == 200);
    CHECK(wait_until([&] { return contains(path, "path=/readyz"); }));

    CHECK(contains(rotated, "path=/healthz"));
    CHECK_FALSE(contains(rotated, "path=/readyz"));
    CHECK_FALSE(contains(path, "path=/healthz"));
    CHECK_FALSE(wait_for_exit(pid, std::chrono::milliseconds(0)).has_value());
}

TEST_CASE("log.file: a file that cannot be opened stops `loupe serve` with a message") {
    std::string out;
    TempDir data;
    const int status = run_loupe(
        {"--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties", "--set",
         "data.dir=" + data.path(), "--set", "db.url=sqlite:" + data.path() + "/loupe.db", "--set",
         "log.file=" + data.path() + "/missing-folder/loupe.log", "serve"},
        out);
    CHECK(status == 1);
    CHECK(out.find("log.file: cannot open " + data.path() + "/missing-folder/loupe.log") !=
          std::string::npos);
}
