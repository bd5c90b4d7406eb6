#pragma once
// The Database behind open_database: a soci::connection_pool of sessions on one engine.

#include <soci/soci.h>

#include <cstddef>
#include <string>

#include "db/database_url.hpp"
#include "db/pool_stats.hpp"
#include "loupe/db/database.hpp"

namespace loupe {

class SociDatabase final : public Database {
public:
    /// Opens `pool_size` sessions; throws std::runtime_error naming `masked_url` on failure.
    SociDatabase(const DatabaseTarget& target, const std::string& masked_url,
                 std::size_t pool_size);
    ~SociDatabase() override;

    Dialect dialect() const override { return dialect_; }
    /// A session found disconnected (e.g. after a PostgreSQL restart) is reconnected first.
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
    PoolStats stats_;
};

}  // namespace loupe
