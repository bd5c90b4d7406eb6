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
    // The CI OpenID Connect ways in, off until a project admin turns them on.
    migrations.add(2, "per-project switches for CI OpenID Connect ID tokens", R"SQL(
ALTER TABLE git_project_settings ADD COLUMN github_actions_oidc_enabled INTEGER NOT NULL DEFAULT 0 CHECK (github_actions_oidc_enabled IN (0, 1));
ALTER TABLE git_project_settings ADD COLUMN gitlab_ci_oidc_enabled INTEGER NOT NULL DEFAULT 0 CHECK (gitlab_ci_oidc_enabled IN (0, 1))
)SQL");
    // What is posted in pull requests (as Argos: the comment on, the summary check `auto`); the
    // builds of each pull request, and one outbox row per comment or summary check to post.
    migrations.add(3, "pull request comments and summary checks", R"SQL(
ALTER TABLE git_project_settings ADD COLUMN pr_comment_enabled INTEGER NOT NULL DEFAULT 1 CHECK (pr_comment_enabled IN (0, 1));
ALTER TABLE git_project_settings ADD COLUMN summary_check TEXT NOT NULL DEFAULT 'auto' CHECK (summary_check IN ('always', 'never', 'auto'));
CREATE TABLE git_pull_request_builds (
  build_id BIGINT PRIMARY KEY,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  repository_key TEXT NOT NULL,
  pr_number BIGINT NOT NULL,
  head_sha TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX git_pull_request_builds_pr ON git_pull_request_builds (provider, repository_key, pr_number);
CREATE INDEX git_pull_request_builds_head ON git_pull_request_builds (provider, repository_key, head_sha);
CREATE TABLE git_pull_request_posts (
  id {{id}},
  kind TEXT NOT NULL CHECK (kind IN ('comment', 'check')),
  provider TEXT NOT NULL,
  repository_key TEXT NOT NULL,
  target TEXT NOT NULL,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  pr_number BIGINT NOT NULL,
  head_sha TEXT NOT NULL,
  remote_id TEXT,
  remote_gone INTEGER NOT NULL DEFAULT 0,
  pushed_body TEXT,
  wanted_seq BIGINT NOT NULL,
  claimed_seq BIGINT NOT NULL DEFAULT 0,
  pushed_seq BIGINT NOT NULL DEFAULT 0,
  lease_until BIGINT,
  last_error TEXT,
  failed_at BIGINT,
  updated_at BIGINT NOT NULL,
  UNIQUE (kind, provider, repository_key, target)
)
)SQL");
    // Comments other plugins keep on pull requests (git.PullRequestComments): one section per
    // project and topic, and the topic of the outbox row that posts them (NULL: the builds').
    migrations.add(4, "pull request comments of other plugins", R"SQL(
ALTER TABLE git_pull_request_posts ADD COLUMN topic TEXT;
CREATE TABLE git_pull_request_sections (
  provider TEXT NOT NULL,
  repository_key TEXT NOT NULL,
  pr_number BIGINT NOT NULL,
  topic TEXT NOT NULL,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  markdown TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (provider, repository_key, pr_number, topic, project_id)
)
)SQL");
}

}  // namespace loupe::git
