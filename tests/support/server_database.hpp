#pragma once
// Direct access to a running test server's database (its SQLite file or PostgreSQL schema), for
// tests that check what a request stored.

#include <memory>
#include <string>

namespace soci {
class session;
}

namespace loupe::test {

class TestServer;

/// A new connection to the server's database; on SQLite it waits for the server's locks.
std::unique_ptr<soci::session> open_server_database(const TestServer& server);
/// The single integer a query answers (SELECT COUNT(*) ...).
long long query_number(soci::session& session, const std::string& sql);
/// The single integer a query answers, on a connection of its own.
long long count_rows(const TestServer& server, const std::string& sql);

}  // namespace loupe::test
