#include "store/oauth_migrations.hpp"

namespace loupe::oauth {

// A grant is what a person approved for one client; its authorization code and its tokens
// are kept only as SHA-256 hashes. Revoking the grant (logout, a refresh token or a code used
// twice) ends every token issued under it.
void add_migrations(Migrations& migrations) {
    migrations.add(1, "create OAuth grants, codes and tokens", R"SQL(
CREATE TABLE oauth_grants (
  id {{id}},
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX oauth_grants_user ON oauth_grants (user_id);
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  grant_id BIGINT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id BIGINT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)
)SQL");
}

}  // namespace loupe::oauth
