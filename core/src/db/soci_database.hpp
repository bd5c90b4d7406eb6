#pragma once
// The Database behind open_database: a soci::connection_pool of sessions on one engine. The
// first session opens at construction (a wrong URL or an unreachable server fails the start);
// the others open the first time they are leased, so an idle process holds one connection
// and not a whole pool (each SQLite connection keeps its own page cache, each PostgreSQL one a
// server process).

#include <soci/soci.h>

#include <cstddef>
#include <string>
#include <vector>

#include "db/database_url.hpp"
#include "db/pool_stats.hpp"
#include "loupe/db/database.hpp"

namespace loupe {

class SociDatabase final : public Database {
public:
    /// Opens the first of `pool_size` sessions; throws std::runtime_error naming `masked_url`
    /// on failure.
    SociDatabase(const DatabaseTarget& target, const std::string& masked_url,
                 std::size_t pool_size);
    ~SociDatabase() override;

    Dialect dialect() const override { return dialect_; }
    /// A session never used is opened, one found disconnected (e.g. after a PostgreSQL
    /// restart) reconnected, before it is handed out.
    SessionLease session() override;
    const PoolStats& pool_stats() const { return stats_; }

protected:
    void run_in_transaction(const std::function<void(soci::session&)>& work) override;

private:
    void open_session(soci::session& session);
    void prepare_session(soci::session& session);

    Dialect dialect_;
    std::string connect_string_;
    std::string masked_url_;
    soci::connection_pool pool_;
    /// Whether each pool slot was opened; an element is read and written only by the thread
    /// that holds that slot's lease (char, not vector<bool>: distinct elements, distinct bytes).
    std::vector<char> opened_;
    PoolStats stats_;
};

}  // namespace loupe
