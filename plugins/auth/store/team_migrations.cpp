// The auth plugin's tables: the role given to people joining a team (no row: "member", Argos's
// default) and one audit row per change of a team or of its members: who acted, what, on whom,
// and the value before and after.
#include "loupe/db/migrations.hpp"
#include "store/team_store.hpp"

namespace loupe::auth {

void add_team_migrations(Migrations& migrations) {
    migrations.add(1, "team defaults and the account audit trail", R"SQL(
CREATE TABLE team_defaults (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    default_user_level TEXT NOT NULL CHECK (default_user_level IN ('member', 'contributor'))
);
CREATE TABLE account_audit (
    id {{id}},
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    actor_user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    action TEXT NOT NULL,
    subject_user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    before_value TEXT,
    after_value TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX account_audit_account_id ON account_audit (account_id, id);
)SQL");
}

}  // namespace loupe::auth
