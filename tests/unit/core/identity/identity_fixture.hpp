#pragma once
// A migrated test database (SQLite, or PostgreSQL with LOUPE_TEST_POSTGRES_URL) with an
// IdentityStore on it, plus helpers the identity and auth tests share.

#include <doctest/doctest.h>

#include <memory>
#include <ostream>
#include <string>

#include "db/database_impl.hpp"
#include "db/migration_runner.hpp"
#include "identity/identity_store.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/log/logger.hpp"
#include "support/test_database.hpp"

namespace loupe::test {

class SilentLogger final : public Logger {
public:
    void log(LogLevel, std::string_view, std::initializer_list<LogField>) override {}
};

inline std::unique_ptr<Database> open_migrated_database(const std::string& url) {
    auto database = open_database(url, 4);
    SilentLogger logger;
    run_migrations(*database, {core_migration_track()}, logger);
    return database;
}

struct IdentityFixture {
    TestDatabase test_database;
    std::unique_ptr<Database> database = open_migrated_database(test_database.url());
    IdentityStore identity{*database};

    /// Runs one statement with bound values, for states no public API produces.
    template <class... Values>
    void execute(const std::string& sql, const Values&... values) {
        auto session = database->session();
        soci::statement statement = ((session->prepare << sql), ..., soci::use(values));
        statement.execute(true);
    }
};

/// The status and message of the HttpError `work` throws ({0, ...} when it throws none).
struct Refusal {
    int status = 0;
    std::string message;
    bool operator==(const Refusal&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const Refusal& refusal) {
    return out << refusal.status << " \"" << refusal.message << "\"";
}

template <class Work>
Refusal refusal_of(Work&& work) {
    try {
        work();
    } catch (const HttpError& error) {
        return Refusal{error.status(), error.what()};
    }
    return Refusal{0, "no HttpError was thrown"};
}

/// The message of the AdminError `work` throws (empty when it throws none).
template <class Work>
std::string admin_error_of(Work&& work) {
    try {
        work();
    } catch (const AdminError& error) {
        return error.what();
    }
    return {};
}

}  // namespace loupe::test
