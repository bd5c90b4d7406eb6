#include "db/database_impl.hpp"

#include "db/database_url.hpp"
#include "db/soci_database.hpp"

namespace loupe {

std::unique_ptr<Database> open_database(const std::string& url, std::size_t pool_size) {
    return std::make_unique<SociDatabase>(parse_database_url(url), mask_database_url(url),
                                          pool_size);
}

const PoolStats* pool_stats_of(const Database& database) {
    const auto* pooled = dynamic_cast<const SociDatabase*>(&database);
    return pooled != nullptr ? &pooled->pool_stats() : nullptr;
}

bool database_ready(Database& database) {
    // A server restart is noticed by the first failing query; the second attempt gets a
    // reconnected session from the pool.
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            auto session = database.session();
            int answer = 0;
            *session << "SELECT 1", soci::into(answer);
            return answer == 1;
        } catch (const std::exception&) {
            // not ready is the answer, not an error
        }
    }
    return false;
}

}  // namespace loupe
