#pragma once
// A Database that refuses every use: the Authenticator needs one, but the HTTP tests only use
// routes and failures that never reach a token lookup.

#include <stdexcept>

#include "loupe/db/database.hpp"

namespace loupe::http_test {

class NullDatabase final : public Database {
public:
    Dialect dialect() const override { return Dialect::sqlite; }
    SessionLease session() override { throw std::logic_error("NullDatabase has no session"); }

protected:
    void run_in_transaction(const std::function<void(soci::session&)>&) override {
        throw std::logic_error("NullDatabase has no session");
    }
};

}  // namespace loupe::http_test
