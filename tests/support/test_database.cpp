#include "support/test_database.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>

namespace loupe::test {
namespace {

std::string random_suffix() {
    static std::atomic<unsigned> counter{0};
    std::random_device device;
    return std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" +
           std::to_string(device() % 1000000);
}

// SOCI 4.0 mangles a URI without any '=' ("postgresql://.../loupe" → database "loupe="), so an
// administrative connection always carries one parameter.
std::string admin_url(const std::string& url) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "application_name=loupe_test";
}

const char* postgres_server() {
    const char* url = std::getenv("LOUPE_TEST_POSTGRES_URL");
    return (url && *url) ? url : nullptr;
}

}  // namespace

bool using_postgres() {
    return postgres_server() != nullptr;
}

TempDir::TempDir() {
    auto base = std::filesystem::temp_directory_path() / ("loupe-test-" + random_suffix());
    std::filesystem::create_directories(base);
    path_ = base.string();
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

TestDatabase::TestDatabase() {
    if (const char* server = postgres_server()) {
        server_url_ = server;
        schema_ = "t_" + random_suffix();
        soci::session admin(soci::postgresql, admin_url(server_url_));
        admin << "SET client_min_messages TO warning";
        admin << "CREATE SCHEMA " + schema_;  // name is generated, never user input
        url_ = server_url_ + (server_url_.find('?') == std::string::npos ? "?" : "&") +
               "options=-csearch_path%3D" + schema_;
        return;
    }
    auto dir = std::filesystem::temp_directory_path() / ("loupe-db-" + random_suffix());
    std::filesystem::create_directories(dir);
    directory_ = dir.string();
    url_ = "sqlite:" + (dir / "loupe.db").string();
}

TestDatabase::~TestDatabase() {
    try {
        if (!schema_.empty()) {
            soci::session admin(soci::postgresql, admin_url(server_url_));
            admin << "SET client_min_messages TO warning";
            admin << "DROP SCHEMA " + schema_ + " CASCADE";
        }
        if (!directory_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(directory_, ignored);
        }
    } catch (const std::exception&) {
        // A failed cleanup must not fail the test that used the database.
    }
}

}  // namespace loupe::test
