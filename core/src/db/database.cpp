// Out-of-line members of the SDK's database types (database.hpp, migrations.hpp).
#include "loupe/db/database.hpp"

#include "loupe/db/migrations.hpp"

namespace loupe {

Database::~Database() = default;
Migrations::~Migrations() = default;

SessionLease::SessionLease(soci::connection_pool& pool, std::size_t position)
    : pool_(&pool), position_(position), session_(&pool.at(position)) {}

SessionLease::SessionLease(SessionLease&& other) noexcept
    : pool_(other.pool_), position_(other.position_), session_(other.session_) {
    other.pool_ = nullptr;
    other.session_ = nullptr;
}

SessionLease::~SessionLease() {
    if (pool_ != nullptr) {
        pool_->give_back(position_);
    }
}

}  // namespace loupe
