#include "backup/sqlite_backup.hpp"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace loupe {
namespace {

constexpr int busy_timeout_ms = 30'000;

class Connection {
public:
    Connection(const std::string& path, int flags) {
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
            const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw std::runtime_error("cannot open SQLite database " + path + ": " + message);
        }
        sqlite3_busy_timeout(db_, busy_timeout_ms);
    }
    ~Connection() { sqlite3_close(db_); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    sqlite3* get() const { return db_; }
    void execute(const std::string& sql) {
        char* error = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string message = error != nullptr ? error : "unknown error";
            sqlite3_free(error);
            throw std::runtime_error("SQLite: " + sql + ": " + message);
        }
    }

private:
    sqlite3* db_ = nullptr;
};

}  // namespace

uint64_t backup_sqlite_database(const std::string& source_path, const std::string& target_path) {
    if (!std::filesystem::exists(source_path)) {
        throw std::runtime_error("no SQLite database at " + source_path);
    }
    if (std::filesystem::exists(target_path)) {
        throw std::runtime_error(target_path + " exists already");
    }
    {
        Connection source(source_path, SQLITE_OPEN_READWRITE);
        Connection target(target_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        sqlite3_backup* backup = sqlite3_backup_init(target.get(), "main", source.get(), "main");
        if (backup == nullptr) {
            throw std::runtime_error(std::string("SQLite backup: ") + sqlite3_errmsg(target.get()));
        }
        int status = SQLITE_OK;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
        do {
            // -1: every page in one step, so the copy is one consistent snapshot.
            status = sqlite3_backup_step(backup, -1);
            if (status == SQLITE_BUSY || status == SQLITE_LOCKED) {
                if (std::chrono::steady_clock::now() > deadline) {
                    break;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        } while (status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED);
        sqlite3_backup_finish(backup);
        if (status != SQLITE_DONE) {
            throw std::runtime_error(std::string("SQLite backup of ") + source_path + ": " +
                                     sqlite3_errstr(status));
        }
        target.execute("PRAGMA journal_mode=DELETE");
    }
    return std::filesystem::file_size(target_path);
}

}  // namespace loupe
