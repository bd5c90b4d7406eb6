#include "support/server_database.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include "support/server_process.hpp"

namespace loupe::test {

std::unique_ptr<soci::session> open_server_database(const TestServer& server) {
    const auto& url = server.database_url();
    if (url.rfind("sqlite:", 0) == 0) {
        // The server writes at the same time: wait for its locks as the server itself does.
        return std::make_unique<soci::session>(soci::sqlite3,
                                               "db=\"" + url.substr(7) + "\" timeout=30");
    }
    return std::make_unique<soci::session>(soci::postgresql, url);
}

long long query_number(soci::session& session, const std::string& sql) {
    long long value = 0;
    session << sql, soci::into(value);
    return value;
}

long long count_rows(const TestServer& server, const std::string& sql) {
    auto db = open_server_database(server);
    return query_number(*db, sql);
}

}  // namespace loupe::test
