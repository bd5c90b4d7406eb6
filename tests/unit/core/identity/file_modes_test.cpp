// What `loupe serve` creates (blob folders, the URL signing secret, the SQLite database) is
// private to its user: no permission bits for group or others.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

#include "support/server_process.hpp"

using namespace loupe::test;

namespace {

unsigned mode_of(const std::string& path) {
    struct stat info {};
    REQUIRE_MESSAGE(::stat(path.c_str(), &info) == 0, path);
    return info.st_mode & 0777U;
}

}  // namespace

TEST_CASE("files loupe creates are private to its user") {
    ServerProcess server;
    for (const char* name : {"/blobs", "/blobs/tmp"}) {
        CHECK_MESSAGE(mode_of(server.data_dir() + name) == 0700U, name);
    }
    CHECK(mode_of(server.data_dir() + "/secret.key") == 0600U);
    const std::string& url = server.database_url();
    if (url.starts_with("sqlite:")) {
        CHECK(mode_of(url.substr(7)) == 0600U);
    }
}
