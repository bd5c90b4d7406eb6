#include "db/migration_runner.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "db/database_impl.hpp"
#include "support/test_database.hpp"

namespace {

using loupe::MigrationStep;
using loupe::MigrationTrack;

class RecordingLogger final : public loupe::Logger {
public:
    void log(loupe::LogLevel, std::string_view event,
             std::initializer_list<loupe::LogField> fields) override {
        std::string line(event);
        for (const auto& [key, value] : fields) {
            line += " " + std::string(key) + "=" + value;
        }
        const std::lock_guard lock(mutex_);
        lines_.push_back(line);
    }
    std::vector<std::string> lines() const {
        const std::lock_guard lock(mutex_);
        return lines_;
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::string> lines_;
};

MigrationTrack builds_track() {
    return {
        "builds",
        {{1, "create builds",
          "CREATE TABLE builds (\n"
          "  id {{id}},\n"
          "  name TEXT NOT NULL,\n"
          "  created_at BIGINT NOT NULL\n"
          ");\n"
          "CREATE INDEX builds_name ON builds (name);\n"},
         {2, "add builds.status", "ALTER TABLE builds ADD COLUMN status TEXT;\n"},
         {3, "create screenshots",
          "CREATE TABLE screenshots (id {{id}}, build_id BIGINT NOT NULL REFERENCES builds (id), "
          "data {{bytes}});\n"}}};
}

MigrationTrack core_track() {
    return {"core",
            {{1, "create users", "CREATE TABLE users (id {{id}}, slug TEXT NOT NULL UNIQUE)"}}};
}

bool table_exists(loupe::Database& db, const std::string& table) {
    auto session = db.session();
    int count = 0;
    if (db.dialect() == loupe::Dialect::sqlite) {
        *session << "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = :t",
            soci::use(table), soci::into(count);
    } else {
        *session << "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = "
                    "current_schema() AND table_name = :t",
            soci::use(table), soci::into(count);
    }
    return count == 1;
}

int recorded_count(loupe::Database& db, const std::string& plugin) {
    auto session = db.session();
    int count = 0;
    *session << "SELECT COUNT(*) FROM schema_migrations WHERE plugin = :p", soci::use(plugin),
        soci::into(count);
    return count;
}

std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("migrations: from empty every step is applied, recorded and logged, in track order") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    RecordingLogger log;

    const auto applied = loupe::run_migrations(*db, {core_track(), builds_track()}, log);

    REQUIRE(applied.size() == 4);
    CHECK(applied[0].plugin == "core");
    CHECK(applied[1].plugin == "builds");
    CHECK(applied[1].version == 1);
    CHECK(applied[3].version == 3);
    CHECK(applied[3].name == "create screenshots");
    CHECK(table_exists(*db, "users"));
    CHECK(table_exists(*db, "builds"));
    CHECK(table_exists(*db, "screenshots"));
    CHECK(recorded_count(*db, "builds") == 3);

    std::string name;
    std::string checksum;
    long long applied_at = 0;
    *db->session() << "SELECT name, checksum, applied_at FROM schema_migrations "
                      "WHERE plugin = 'builds' AND version = 2",
        soci::into(name), soci::into(checksum), soci::into(applied_at);
    CHECK(name == "add builds.status");
    CHECK(checksum == loupe::migration_checksum(builds_track().steps[1]));
    CHECK(applied_at > 1'700'000'000'000LL);

    const auto lines = log.lines();
    REQUIRE(lines.size() == 4);
    CHECK(lines[1].rfind("migration.applied track=builds version=1 name=create builds", 0) == 0);

    // The rendered {{id}} works: the new tables take rows with generated ids.
    long long id = 0;
    *db->session() << "INSERT INTO builds (name, created_at) VALUES ('b', 1) RETURNING id",
        soci::into(id);
    CHECK(id >= 1);
}

TEST_CASE("migrations: a second run applies nothing") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    RecordingLogger log;
    loupe::run_migrations(*db, {core_track(), builds_track()}, log);

    const auto again = loupe::run_migrations(*db, {core_track(), builds_track()}, log);
    CHECK(again.empty());
    CHECK(log.lines().size() == 4);
    CHECK(recorded_count(*db, "builds") == 3);
}

TEST_CASE("migrations: new steps of a track are applied on top of existing rows") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    RecordingLogger log;
    auto first_two = builds_track();
    first_two.steps.pop_back();
    loupe::run_migrations(*db, {first_two}, log);
    *db->session() << "INSERT INTO builds (name, created_at, status) VALUES ('kept', 1, 'ok')";

    const auto applied = loupe::run_migrations(*db, {builds_track()}, log);
    REQUIRE(applied.size() == 1);
    CHECK(applied[0].version == 3);
    std::string status;
    *db->session() << "SELECT status FROM builds WHERE name = 'kept'", soci::into(status);
    CHECK(status == "ok");
}

TEST_CASE("migrations: a step changed after it was applied is refused") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    RecordingLogger log;
    loupe::run_migrations(*db, {builds_track()}, log);

    auto edited = builds_track();
    edited.steps[2].sql += "CREATE INDEX screenshots_build ON screenshots (build_id);\n";
    CHECK(error_of([&] { loupe::run_migrations(*db, {edited}, log); }) ==
          "migration builds/3 changed after it was applied");
}

TEST_CASE("migrations: a database ahead of the binary is refused") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 2);
    RecordingLogger log;
    loupe::run_migrations(*db, {builds_track()}, log);

    auto older = builds_track();
    older.steps.resize(1);
    CHECK(error_of([&] { loupe::run_migrations(*db, {older}, log); }) ==
          "database is at builds/3, this binary knows builds/1");
    CHECK(error_of([&] {
              loupe::run_migrations(*db, {MigrationTrack{"builds", {}}}, log);
          }) == "database is at builds/3, this binary knows builds/0");
}

TEST_CASE("migrations: steps must be numbered 1..n without gaps") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 1);
    RecordingLogger log;
    const MigrationTrack gap{
        "reviews",
        {{1, "a", "CREATE TABLE ra (x INTEGER)"}, {3, "c", "CREATE TABLE rc (x INTEGER)"}}};
    const auto message = error_of([&] { loupe::run_migrations(*db, {core_track(), gap}, log); });
    CHECK(message ==
          "migrations of plugin 'reviews' must be numbered 1, 2, 3, ... without gaps: step 2 "
          "has version 3");
    CHECK_FALSE(table_exists(*db, "users"));  // refused before anything ran

    const MigrationTrack from_zero{"reviews", {{0, "a", "CREATE TABLE ra (x INTEGER)"}}};
    CHECK(error_of([&] { loupe::run_migrations(*db, {from_zero}, log); }).find("'reviews'") !=
          std::string::npos);
}

TEST_CASE("migrations: a failing step rolls back entirely and is not recorded") {
    loupe::test::TestDatabase test_db;
    auto db = loupe::open_database(test_db.url(), 1);
    RecordingLogger log;
    const MigrationTrack track{"jobs",
                               {{1, "create jobs", "CREATE TABLE jobs (id {{id}});\n"},
                                {2, "broken",
                                 "CREATE TABLE half_done (x INTEGER);\n"
                                 "INSERT INTO no_such_table (x) VALUES (1);\n"}}};

    const auto message = error_of([&] { loupe::run_migrations(*db, {track}, log); });
    CHECK(message.rfind("migration jobs/2 (broken) failed in statement 2 of 2: ", 0) == 0);
    CHECK(table_exists(*db, "jobs"));
    CHECK_FALSE(table_exists(*db, "half_done"));
    CHECK(recorded_count(*db, "jobs") == 1);

    if (db->dialect() == loupe::Dialect::postgresql) {
        // The run-wide advisory lock was released although the run failed.
        int held = -1;
        *db->session() << "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND "
                          "pid = pg_backend_pid()",
            soci::into(held);
        CHECK(held == 0);
    }

    auto fixed = track;
    fixed.steps[1].sql = "CREATE TABLE half_done (x INTEGER);\n";
    CHECK(loupe::run_migrations(*db, {fixed}, log).size() == 1);
    CHECK(table_exists(*db, "half_done"));
}

TEST_CASE("migrations: two instances migrating at once apply each step exactly once") {
    loupe::test::TestDatabase test_db;
    constexpr int steps = 12;
    MigrationTrack track{"concurrent", {}};
    track.steps.push_back({1, "log table", "CREATE TABLE step_log (step INTEGER NOT NULL);\n"});
    for (int v = 2; v <= steps; ++v) {
        // Without IF NOT EXISTS: applying a step twice would fail, and step_log would show it.
        track.steps.push_back({v, "step " + std::to_string(v),
                               "CREATE TABLE t" + std::to_string(v) + " (x INTEGER);\n" +
                                   "INSERT INTO step_log (step) VALUES (" + std::to_string(v) +
                                   ");\n"});
    }
    auto first = loupe::open_database(test_db.url(), 1);
    auto second = loupe::open_database(test_db.url(), 1);
    RecordingLogger log;
    std::vector<loupe::AppliedMigration> applied_by_first;
    std::vector<loupe::AppliedMigration> applied_by_second;
    std::string first_error;
    std::string second_error;
    std::thread a([&] {
        first_error = error_of([&] { applied_by_first = run_migrations(*first, {track}, log); });
    });
    std::thread b([&] {
        second_error = error_of([&] { applied_by_second = run_migrations(*second, {track}, log); });
    });
    a.join();
    b.join();

    CHECK(first_error == "(no error)");
    CHECK(second_error == "(no error)");
    CHECK(applied_by_first.size() + applied_by_second.size() == steps);
    CHECK(recorded_count(*first, "concurrent") == steps);
    int logged = 0;
    int distinct = 0;
    *first->session() << "SELECT COUNT(*), COUNT(DISTINCT step) FROM step_log", soci::into(logged),
        soci::into(distinct);
    CHECK(logged == steps - 1);
    CHECK(distinct == steps - 1);
}

TEST_CASE("migrations: the checksum is the SHA-256 hex of the portable SQL") {
    CHECK(loupe::migration_checksum({1, "empty", ""}) ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(loupe::migration_checksum({1, "a", "abc"}) ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // Renaming a step does not change it; only the SQL counts.
    CHECK(loupe::migration_checksum({1, "a", "abc"}) == loupe::migration_checksum({2, "b", "abc"}));
}
