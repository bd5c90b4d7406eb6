#include "migrations.hpp"

namespace loupe::deployments {

void add_migrations(Migrations& migrations) {
    migrations.add(1, "create deployments, files, contents, aliases, settings and secrets", R"SQL(
CREATE TABLE deployments (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  environment TEXT NOT NULL,
  branch TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  pr_number BIGINT,
  spa INTEGER NOT NULL,
  file_count BIGINT NOT NULL,
  compressed INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  finalized_at BIGINT
);
CREATE INDEX deployments_project_created ON deployments (project_id, created_at);
CREATE INDEX deployments_created ON deployments (created_at);
CREATE TABLE deployment_files (
  deployment_id BIGINT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  hash TEXT NOT NULL,
  size BIGINT NOT NULL,
  content_type TEXT NOT NULL,
  PRIMARY KEY (deployment_id, path)
);
CREATE INDEX deployment_files_hash ON deployment_files (hash);
CREATE TABLE deployment_contents (
  hash TEXT PRIMARY KEY,
  size BIGINT NOT NULL,
  gzip_checked INTEGER NOT NULL,
  gzip_hash TEXT,
  gzip_size BIGINT,
  registered_at BIGINT NOT NULL
);
CREATE INDEX deployment_contents_gzip ON deployment_contents (gzip_hash);
CREATE TABLE deployment_aliases (
  alias TEXT PRIMARY KEY,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  deployment_id BIGINT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX deployment_aliases_deployment ON deployment_aliases (deployment_id);
CREATE TABLE deployment_settings (
  project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL,
  production_branch_glob TEXT,
  auth TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE deployment_secrets (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
)
)SQL");
    // Aliases named before the unambiguous "--" encoding keep working as `legacy` rows; private
    // links become rows too: each opens the deployment it was issued for until it expires or
    // is revoked. Their keys are stored as SHA-256 (key_hash is set right after the insert,
    // since the key is derived from the row's id).
    migrations.add(2, "legacy aliases, private-site links", R"SQL(
ALTER TABLE deployment_aliases ADD COLUMN legacy INTEGER NOT NULL DEFAULT 0;
UPDATE deployment_aliases SET legacy = 1;
CREATE TABLE deployment_links (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  deployment_id BIGINT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  site_name TEXT NOT NULL,
  key_hash TEXT UNIQUE,
  source TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX deployment_links_deployment ON deployment_links (deployment_id, site_name);
CREATE INDEX deployment_links_project ON deployment_links (project_id, expires_at)
)SQL");
    // A project's own production site name (its domain under plugins.deployments.domain): one
    // project per name.
    migrations.add(3, "a project's production site name", R"SQL(
ALTER TABLE deployment_settings ADD COLUMN production_name TEXT;
CREATE UNIQUE INDEX deployment_settings_production_name ON deployment_settings (production_name);
)SQL");
}

}  // namespace loupe::deployments
