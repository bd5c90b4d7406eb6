#include "store/git_migrations.hpp"

namespace loupe::git {

void add_git_migrations(Migrations& migrations) {
    migrations.add(1, "create repository links, git settings and commit statuses", R"SQL(
CREATE TABLE git_repository_links (
  project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('github', 'gitlab')),
  repository TEXT NOT NULL,
  repository_key TEXT NOT NULL,
  installation_id BIGINT,
  token_file TEXT,
  gitlab_project_id BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX git_repository_links_repository ON git_repository_links (provider, repository_key);
CREATE TABLE git_project_settings (
  project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  tokenless_auth_enabled INTEGER NOT NULL DEFAULT 0 CHECK (tokenless_auth_enabled IN (0, 1)),
  updated_at BIGINT NOT NULL
);
CREATE TABLE git_commit_statuses (
  build_id BIGINT PRIMARY KEY,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  wanted_seq BIGINT NOT NULL,
  claimed_seq BIGINT NOT NULL DEFAULT 0,
  pushed_seq BIGINT NOT NULL DEFAULT 0,
  lease_until BIGINT,
  provider TEXT,
  sha TEXT,
  state TEXT,
  description TEXT,
  context TEXT,
  pushed_at BIGINT,
  last_error TEXT,
  failed_at BIGINT,
  updated_at BIGINT NOT NULL
)
)SQL");
    // Pushes are now asked for by build events (each delivery a job of its own), so the row
    // keeps only the claim and what was last pushed: the request sequence numbers go.
    migrations.add(2, "commit statuses without request sequence numbers", R"SQL(
ALTER TABLE git_commit_statuses DROP COLUMN wanted_seq;
ALTER TABLE git_commit_statuses DROP COLUMN claimed_seq;
ALTER TABLE git_commit_statuses DROP COLUMN pushed_seq
)SQL");
}

}  // namespace loupe::git
