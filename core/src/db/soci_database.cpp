#include "db/soci_database.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "db/transaction.hpp"

namespace loupe {
namespace {

constexpr int sqlite_busy_timeout_seconds = 30;

std::string sqlite_connect_string(const std::string& path) {
    if (path.find('"') != std::string::npos) {
        throw std::runtime_error("SQLite path " + path + " contains a double quote");
    }
    // SOCI splits its connect string on spaces; a quoted value may contain them.
    return "db=\"" + path + "\" timeout=" + std::to_string(sqlite_busy_timeout_seconds);
}

void create_parent_folder(const std::string& path) {
    const auto parent = std::filesystem::path(path).parent_path();
    if (parent.empty()) {
        return;
    }
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error) {
        throw std::runtime_error("cannot create folder " + parent.string() +
                                 " for the database: " + error.message());
    }
}

std::size_t checked_pool_size(std::size_t pool_size) {
    if (pool_size == 0) {
        throw std::runtime_error("database pool size must be at least 1");
    }
    return pool_size;
}

}  // namespace

SociDatabase::SociDatabase(const DatabaseTarget& target, const std::string& masked_url,
                           std::size_t pool_size)
    : dialect_(target.dialect), masked_url_(masked_url), pool_(checked_pool_size(pool_size)) {
    stats_.size = pool_size;
    if (dialect_ == Dialect::sqlite) {
        create_parent_folder(target.location);
        connect_string_ = sqlite_connect_string(target.location);
    } else {
        connect_string_ = target.location;
    }
    opened_.assign(pool_size, 0);
    open_session(pool_.at(0));
    opened_[0] = 1;
}

SociDatabase::~SociDatabase() = default;

void SociDatabase::open_session(soci::session& session) {
    try {
        if (dialect_ == Dialect::sqlite) {
            session.open(soci::sqlite3, connect_string_);
        } else {
            session.open(soci::postgresql, connect_string_);
        }
        prepare_session(session);
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot open database " + masked_url_ + ": " + error.what());
    }
}

void SociDatabase::prepare_session(soci::session& session) {
    if (dialect_ == Dialect::postgresql) {
        // libpq prints NOTICEs ("relation ... already exists, skipping") on stderr, in the
        // middle of the log lines; warnings and errors still come through.
        session << "SET client_min_messages TO warning";
        return;
    }
    std::string journal_mode;
    session << "PRAGMA journal_mode=WAL", soci::into(journal_mode);
    if (journal_mode != "wal") {
        throw std::runtime_error("SQLite refused WAL mode (journal_mode is " + journal_mode + ")");
    }
    session << "PRAGMA synchronous=NORMAL";
    session << "PRAGMA foreign_keys=ON";
    session << "PRAGMA busy_timeout=" + std::to_string(sqlite_busy_timeout_seconds * 1000);
}

SessionLease SociDatabase::session() {
    std::size_t position = 0;
    if (!pool_.try_lease(position, 0)) {
        const auto started = std::chrono::steady_clock::now();
        position = pool_.lease();
        const auto waited = std::chrono::steady_clock::now() - started;
        stats_.waits.fetch_add(1, std::memory_order_relaxed);
        stats_.wait_nanoseconds.fetch_add(
            static_cast<uint64_t>(std::chrono::nanoseconds(waited).count()),
            std::memory_order_relaxed);
    }
    SessionLease lease(pool_, position);
    if (opened_[position] == 0) {
        open_session(*lease);
        opened_[position] = 1;
    } else if (!lease->is_connected()) {
        try {
            lease->reconnect();
            prepare_session(*lease);
        } catch (const std::exception& error) {
            throw std::runtime_error("cannot reconnect to database " + masked_url_ + ": " +
                                     error.what());
        }
    }
    return lease;
}

void SociDatabase::run_in_transaction(const std::function<void(soci::session&)>& work) {
    auto lease = session();
    run_transaction(*lease, dialect_, work);
}

}  // namespace loupe
