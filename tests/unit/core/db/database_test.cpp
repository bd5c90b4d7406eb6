#include <doctest/doctest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <barrier>
#include <filesystem>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "db/database_impl.hpp"
#include "db/transaction.hpp"
#include "loupe/json.hpp"
#include "support/test_database.hpp"

namespace {

long long count_rows(loupe::Database& db, const std::string& table) {
    auto session = db.session();
    long long count = 0;
    *session << "SELECT COUNT(*) FROM " + table, soci::into(count);  // table: a test constant
    return count;
}

/// The connections `db` holds open: on SQLite the descriptors of this process on its file, on
/// PostgreSQL the server's sessions carrying `application`.
long long open_connections(loupe::Database& db, const std::string& sqlite_file,
                           const std::string& application) {
    if (db.dialect() == loupe::Dialect::sqlite) {
        long long count = 0;
        for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
            std::error_code error;
            if (std::filesystem::read_symlink(entry.path(), error) == sqlite_file) {
                ++count;
            }
        }
        return count;
    }
    long long count = 0;
    *db.session() << "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = :name",
        soci::use(application), soci::into(count);
    return count;
}

}  // namespace

TEST_CASE("database: an idle pool holds one connection, the others open when first leased") {
    loupe::test::TestDatabase test_db;
    const std::string application = "lazy_pool_" + std::to_string(::getpid());
    std::string url = test_db.url();
    if (test_db.is_postgres()) {
        url +=
            (url.find('?') == std::string::npos ? "?" : "&") + ("application_name=" + application);
    }
    auto db = loupe::open_database(url, 4);
    const std::string sqlite_file =
        test_db.is_postgres() ? "" : std::filesystem::canonical(url.substr(7)).string();
    CHECK(open_connections(*db, sqlite_file, application) == 1);
    {
        std::vector<loupe::SessionLease> leases;  // three at once: two more connections
        leases.reserve(3);
        for (int i = 0; i < 3; ++i) {
            leases.push_back(db->session());
        }
        for (auto& lease : leases) {
            int one = 0;
            *lease << "SELECT 1", soci::into(one);
            CHECK(one == 1);
        }
    }
    CHECK(open_connections(*db, sqlite_file, application) == 3);
}

TEST_CASE("database: INSERT ... RETURNING id gives the new 64-bit id") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    auto session = db->session();
    *session << db->sql("CREATE TABLE items (id {{id}}, name TEXT NOT NULL)");

    // soci::use binds by reference until the statement runs: never pass a temporary.
    const std::string a = "a";
    const std::string b = "b";
    const std::string big_name = "big";
    long long first = 0;
    int64_t second = 0;
    *session << "INSERT INTO items (name) VALUES (:name) RETURNING id", soci::use(a),
        soci::into(first);
    *session << "INSERT INTO items (name) VALUES (:name) RETURNING id", soci::use(b),
        soci::into(second);
    CHECK(first >= 1);
    CHECK(second > first);

    const long long big = 5'000'000'000LL;
    long long returned = 0;
    *session << "INSERT INTO items (id, name) VALUES (:id, :name) RETURNING id", soci::use(big),
        soci::use(big_name), soci::into(returned);
    CHECK(returned == big);
    std::string name;
    *session << "SELECT name FROM items WHERE id = :id", soci::use(second), soci::into(name);
    CHECK(name == "b");
}

TEST_CASE("database: a transaction commits, or rolls back and rethrows") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    db->transaction([&](soci::session& s) { s << "CREATE TABLE notes (body TEXT NOT NULL)"; });

    const std::string kept = "kept";
    const std::string dropped = "dropped";
    db->transaction(
        [&](soci::session& s) { s << "INSERT INTO notes (body) VALUES (:body)", soci::use(kept); });
    CHECK_THROWS_WITH_AS(db->transaction([&](soci::session& s) {
        s << "INSERT INTO notes (body) VALUES (:body)", soci::use(dropped);
        throw std::logic_error("handler failed");
    }),
                         "handler failed", std::logic_error);
    CHECK(count_rows(*db, "notes") == 1);

    const auto body = db->transaction([](soci::session& s) {
        std::string text;
        s << "SELECT body FROM notes", soci::into(text);
        return text;
    });
    CHECK(body == "kept");
}

TEST_CASE("database: after-commit actions run once the transaction commits, never on rollback") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    db->transaction([&](soci::session& s) { s << "CREATE TABLE notes (body TEXT NOT NULL)"; });

    std::vector<std::string> seen;
    // What the action reads is what the transaction committed: it runs after COMMIT.
    db->transaction([&](soci::session& s) {
        s << "INSERT INTO notes (body) VALUES ('first')";
        loupe::run_after_commit([&] { seen.push_back(std::to_string(count_rows(*db, "notes"))); });
        CHECK(seen.empty());
    });
    CHECK(seen == std::vector<std::string>{"1"});

    CHECK_THROWS(db->transaction([&](soci::session& s) {
        s << "INSERT INTO notes (body) VALUES ('second')";
        loupe::run_after_commit([&] { seen.emplace_back("rolled back"); });
        throw std::logic_error("handler failed");
    }));
    CHECK(seen.size() == 1);

    // Outside a transaction the action runs at once; one that throws does not fail the commit.
    loupe::run_after_commit([&] { seen.emplace_back("now"); });
    CHECK(seen.back() == "now");
    CHECK_NOTHROW(db->transaction([&](soci::session& s) {
        s << "INSERT INTO notes (body) VALUES ('third')";
        loupe::run_after_commit([] { throw std::runtime_error("after the commit"); });
        loupe::run_after_commit([&] { seen.emplace_back("after the throw"); });
    }));
    CHECK(seen.back() == "after the throw");
    CHECK(count_rows(*db, "notes") == 2);
}

TEST_CASE("database: serialization failures, deadlocks and SQLITE_BUSY are retried") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 1);
    db->transaction([](soci::session& s) { s << "CREATE TABLE attempts (n INTEGER)"; });

    int calls = 0;
    db->transaction([&](soci::session& s) {
        ++calls;
        s << "INSERT INTO attempts (n) VALUES (:n)", soci::use(calls);
        if (calls == 1) {
            throw soci::postgresql_soci_error("could not serialize access", "40001");
        }
        if (calls == 2) {
            throw soci::postgresql_soci_error("deadlock detected", "40P01");
        }
        if (calls == 3) {
            throw soci::sqlite3_soci_error("database is locked", 5);
        }
    });
    CHECK(calls == 4);
    CHECK(count_rows(*db, "attempts") == 1);  // the failed attempts were rolled back

    calls = 0;
    CHECK_THROWS_AS(db->transaction([&](soci::session&) {
        ++calls;
        throw soci::postgresql_soci_error("duplicate key", "23505");
    }),
                    soci::postgresql_soci_error);
    CHECK(calls == 1);

    calls = 0;
    CHECK_THROWS_AS(db->transaction([&](soci::session&) {
        ++calls;
        throw soci::sqlite3_soci_error("database is locked", 5);
    }),
                    soci::sqlite3_soci_error);
    CHECK(calls == 4);  // gives up after a few attempts
}

TEST_CASE("database: concurrent read-modify-write transactions lose no update") {
    loupe::test::TestDatabase test_db;
    constexpr int threads = 4;
    constexpr int per_thread = 40;
    auto db = loupe::open_database(test_db.url(), threads);
    db->transaction([](soci::session& s) {
        s << "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)";
        s << "INSERT INTO counter (id, n) VALUES (1, 0)";
    });
    // SQLite: BEGIN IMMEDIATE serializes writers. PostgreSQL: the row lock does.
    const std::string read = db->dialect() == loupe::Dialect::postgresql
                                 ? "SELECT n FROM counter WHERE id = 1 FOR UPDATE"
                                 : "SELECT n FROM counter WHERE id = 1";
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            for (int i = 0; i < per_thread; ++i) {
                db->transaction([&](soci::session& s) {
                    int n = 0;
                    s << read, soci::into(n);
                    const int next = n + 1;
                    s << "UPDATE counter SET n = :n WHERE id = 1", soci::use(next);
                });
            }
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    int n = 0;
    *db->session() << "SELECT n FROM counter WHERE id = 1", soci::into(n);
    CHECK(n == threads * per_thread);
}

TEST_CASE("database: a PostgreSQL deadlock is retried until both transactions commit") {
    loupe::test::TestDatabase test_db;
    if (!test_db.is_postgres()) {
        MESSAGE("PostgreSQL only: SQLite's BEGIN IMMEDIATE cannot deadlock");
        return;
    }
    auto db = loupe::open_database(test_db.url(), 2);
    db->transaction([](soci::session& s) {
        s << "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)";
        s << "INSERT INTO accounts (id, balance) VALUES (1, 0), (2, 0)";
    });
    std::barrier both_hold_one_row(2);
    std::atomic<int> attempts{0};
    const auto transfer = [&](int first, int second) {
        bool first_attempt = true;
        db->transaction([&](soci::session& s) {
            ++attempts;
            s << "UPDATE accounts SET balance = balance + 1 WHERE id = :id", soci::use(first);
            if (first_attempt) {
                first_attempt = false;
                both_hold_one_row.arrive_and_wait();
            }
            s << "UPDATE accounts SET balance = balance + 1 WHERE id = :id", soci::use(second);
        });
    };
    std::thread a(transfer, 1, 2);
    std::thread b(transfer, 2, 1);
    a.join();
    b.join();
    CHECK(attempts.load() == 3);  // one of the two was chosen as the deadlock victim, then retried
    int total = 0;
    *db->session() << "SELECT SUM(balance) FROM accounts", soci::into(total);
    CHECK(total == 4);
}

TEST_CASE("database: foreign keys are enforced, SQLite sessions run in WAL") {
    loupe::test::TestDatabase test_db;
    constexpr std::size_t pool_size = 3;
    auto db = loupe::open_database(test_db.url(), pool_size);
    db->transaction([](soci::session& s) {
        s << "CREATE TABLE parents (id INTEGER PRIMARY KEY)";
        s << "CREATE TABLE children (parent_id INTEGER NOT NULL REFERENCES parents (id))";
    });
    CHECK_THROWS_AS(db->transaction([](soci::session& s) {
        s << "INSERT INTO children (parent_id) VALUES (42)";
    }),
                    soci::soci_error);

    if (db->dialect() == loupe::Dialect::sqlite) {
        std::vector<loupe::SessionLease> leases;  // every pooled session at once
        for (std::size_t i = 0; i < pool_size; ++i) {
            leases.push_back(db->session());
        }
        for (auto& lease : leases) {
            std::string journal_mode;
            int foreign_keys = 0;
            int synchronous = 0;
            int busy_timeout = 0;
            *lease << "PRAGMA journal_mode", soci::into(journal_mode);
            *lease << "PRAGMA foreign_keys", soci::into(foreign_keys);
            *lease << "PRAGMA synchronous", soci::into(synchronous);
            *lease << "PRAGMA busy_timeout", soci::into(busy_timeout);
            CHECK(journal_mode == "wal");
            CHECK(foreign_keys == 1);
            CHECK(synchronous == 1);  // NORMAL
            CHECK(busy_timeout > 0);
        }
    }
}

TEST_CASE("database: a SQLite file's missing parent folders are created") {
    loupe::test::TempDir dir;
    const auto path = std::filesystem::path(dir.path()) / "a" / "b" / "loupe.db";
    auto db = loupe::open_database("sqlite:" + path.string(), 1);
    CHECK(loupe::database_ready(*db));
    CHECK(std::filesystem::is_regular_file(path));
}

TEST_CASE("database: open failures name the URL with its password masked") {
    try {
        loupe::open_database("postgresql://loupe:topsecret@127.0.0.1:1/loupe?connect_timeout=2", 1);
        FAIL("opened a database on a closed port");
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        CHECK(message.find("postgresql://loupe:***@127.0.0.1:1/loupe") != std::string::npos);
        CHECK(message.find("topsecret") == std::string::npos);
    }
    CHECK_THROWS_WITH_AS(loupe::open_database("oracle://scott:tiger@db/orcl", 1),
                         doctest::Contains("unsupported database URL 'oracle://scott:***@db/orcl'"),
                         std::runtime_error);
}

TEST_CASE("database: ready on a live database") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 1);
    CHECK(loupe::database_ready(*db));
    CHECK(db->dialect() ==
          (test_db.is_postgres() ? loupe::Dialect::postgresql : loupe::Dialect::sqlite));
}

TEST_CASE("database: postgresql:<conninfo> reaches the same server as the URI") {
    loupe::test::TestDatabase test_db;
    const std::regex uri(R"(^postgres(?:ql)?://([^:@/]+):([^@/]*)@([^:/?]+):(\d+)/([^?]+).*)");
    std::smatch part;
    if (!test_db.is_postgres() || !std::regex_match(test_db.url(), part, uri)) {
        MESSAGE("needs LOUPE_TEST_POSTGRES_URL=postgresql://user:password@host:port/db");
        return;
    }
    auto by_uri = loupe::open_database(test_db.url(), 1);
    std::string schema;
    *by_uri->session() << "SELECT current_schema()", soci::into(schema);
    *by_uri->session() << "CREATE TABLE marker (x INTEGER)";

    // Quoted values with blanks: what SOCI would cut apart if given the conninfo itself.
    auto by_conninfo = loupe::open_database(
        "postgresql:host=" + part[3].str() + " port=" + part[4].str() + " user=" + part[1].str() +
            " password='" + part[2].str() + "' dbname=" + part[5].str() +
            " options='-c search_path=" + schema + "' application_name='loupe conninfo test'",
        1);
    auto session = by_conninfo->session();
    std::string application;
    int markers = -1;
    *session << "SELECT current_setting('application_name')", soci::into(application);
    *session << "SELECT COUNT(*) FROM marker", soci::into(markers);
    CHECK(application == "loupe conninfo test");
    CHECK(markers == 0);
}

TEST_CASE("database: {{json_rows:NAME}} inserts many rows from one bound JSON array, in order") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    auto session = db->session();
    *session << db->sql(
        "CREATE TABLE items (id {{id}}, name TEXT NOT NULL, size BIGINT, "
        "ratio DOUBLE PRECISION, note TEXT)");
    loupe::Json rows = loupe::Json::array();
    for (int i = 0; i < 3000; ++i) {
        loupe::Json row = {{"name", "item '" + std::to_string(i) + "\" ; --"}, {"size", i * 7}};
        if (i % 2 == 0) {
            row["ratio"] = i / 8.0;
            row["note"] = "é\n" + std::to_string(i);
        }
        rows.push_back(row);
    }
    const std::string text = rows.dump();
    *session << db->sql(
        "INSERT INTO items (name, size, ratio, note) SELECT value ->> 'name', "
        "CAST(value ->> 'size' AS BIGINT), CAST(value ->> 'ratio' AS DOUBLE "
        "PRECISION), value ->> 'note' FROM {{json_rows:rows}} ORDER BY position"),
        soci::use(text, "rows");
    CHECK(count_rows(*db, "items") == 3000);

    soci::rowset<soci::row> stored =
        (session->prepare << "SELECT name, size, ratio, note FROM items ORDER BY id");
    int i = 0;
    for (const auto& row : stored) {
        INFO("row " << i);
        CHECK(row.get<std::string>(0) == "item '" + std::to_string(i) + "\" ; --");
        CHECK(row.get<long long>(1) == i * 7);
        if (i % 2 == 0) {
            CHECK(row.get<double>(2) == doctest::Approx(i / 8.0));
            CHECK(row.get<std::string>(3) == "é\n" + std::to_string(i));
        } else {
            CHECK(row.get_indicator(2) == soci::i_null);
            CHECK(row.get_indicator(3) == soci::i_null);
        }
        ++i;
    }
    CHECK(i == 3000);
}
