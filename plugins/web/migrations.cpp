#include "migrations.hpp"

namespace loupe::web {

void add_migrations(Migrations& migrations) {
    migrations.add(1, "create web sessions, login links and thumbnails", R"SQL(
CREATE TABLE web_sessions (
  id {{id}},
  token_hash TEXT NOT NULL UNIQUE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  personal_token_id BIGINT REFERENCES tokens(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  revoked_at BIGINT,
  user_agent TEXT
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);
CREATE TABLE web_login_links (
  id {{id}},
  token_hash TEXT NOT NULL UNIQUE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE TABLE web_thumbnails (
  source_key TEXT NOT NULL,
  variant TEXT NOT NULL,
  thumbnail_key TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (source_key, variant)
)
)SQL");
}

}  // namespace loupe::web
