#include "store/sso_migrations.hpp"

namespace loupe::sso {

// A sign-in in progress is kept by the hash of its `state` (the browser holds the state in a
// cookie and brings it back in the callback); its PKCE verifier and nonce never leave the
// server. A person is linked to a provider by the provider's subject, so a changed email at the
// provider still signs the same person in.
void add_migrations(Migrations& migrations) {
    migrations.add(1, "create sign-in attempts and linked identities", R"SQL(
CREATE TABLE sso_sign_in_attempts (
  state_hash TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  nonce TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  return_to TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX sso_sign_in_attempts_created ON sso_sign_in_attempts (created_at);
CREATE TABLE sso_identities (
  provider TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT,
  created_at BIGINT NOT NULL,
  last_sign_in_at BIGINT NOT NULL,
  PRIMARY KEY (provider, subject)
);
CREATE INDEX sso_identities_user ON sso_identities (user_id)
)SQL");
    // A SAML sign-in has two steps: the IdP's POST (cross-site, so without the browser's
    // state cookie) verifies the response and keeps its claims here; the browser's own GET
    // that follows, with the cookie, opens the session.
    migrations.add(2, "keep a SAML sign-in's verified claims between its two steps", R"SQL(
ALTER TABLE sso_sign_in_attempts ADD COLUMN verified_claims TEXT
)SQL");
}

}  // namespace loupe::sso
