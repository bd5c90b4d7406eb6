// The core's schema track. Shipped steps are never edited (their checksums are recorded):
// changes go into a new step at the end.
#include "db/migration_runner.hpp"

namespace loupe {
namespace {

// Users and their accounts share one slug namespace (accounts.slug). A user's personal account
// points at the user; users never point back, so neither table needs the other to exist first.
// Project settings default to what Argos gives a new project (defaultBaseBranch "main", private,
// deployments "domain-private", ignore enabled with auto-ignore after 3 changes); NULL globs fall
// back to defaultBaseBranch / "main" when serialized, NULL auto_ignore_changes means no
// auto-ignore. Tokens keep only their SHA-256 and a 12-character visible prefix.
constexpr const char* identity_sql = R"SQL(
CREATE TABLE users (
    id {{id}},
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    staff INTEGER NOT NULL DEFAULT 0 CHECK (staff IN (0, 1)),
    created_at BIGINT NOT NULL
);
CREATE TABLE accounts (
    id {{id}},
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('user', 'team')),
    user_id BIGINT UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    CHECK ((kind = 'user') = (user_id IS NOT NULL))
);
CREATE TABLE team_members (
    id {{id}},
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'member', 'contributor')),
    created_at BIGINT NOT NULL,
    UNIQUE (account_id, user_id)
);
CREATE INDEX team_members_user_id ON team_members (user_id);
CREATE TABLE projects (
    id {{id}},
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    default_base_branch TEXT NOT NULL DEFAULT 'main',
    auto_approved_branch_glob TEXT,
    deployment_production_branch_glob TEXT,
    is_private INTEGER NOT NULL DEFAULT 1 CHECK (is_private IN (0, 1)),
    summary_check TEXT NOT NULL DEFAULT 'auto' CHECK (summary_check IN ('always', 'never', 'auto')),
    pr_comment_enabled INTEGER NOT NULL DEFAULT 1 CHECK (pr_comment_enabled IN (0, 1)),
    github_actions_oidc_enabled INTEGER NOT NULL DEFAULT 0 CHECK (github_actions_oidc_enabled IN (0, 1)),
    tokenless_auth_enabled INTEGER NOT NULL DEFAULT 0 CHECK (tokenless_auth_enabled IN (0, 1)),
    deployment_enabled INTEGER NOT NULL DEFAULT 1 CHECK (deployment_enabled IN (0, 1)),
    deployment_auth TEXT NOT NULL DEFAULT 'domain-private' CHECK (deployment_auth IN ('public', 'domain-private', 'private')),
    default_user_level TEXT CHECK (default_user_level IN ('admin', 'reviewer', 'viewer')),
    ignore_enabled INTEGER NOT NULL DEFAULT 1 CHECK (ignore_enabled IN (0, 1)),
    auto_ignore_changes INTEGER DEFAULT 3,
    created_at BIGINT NOT NULL,
    last_activity_at BIGINT,
    UNIQUE (account_id, name_key)
);
CREATE TABLE project_users (
    id {{id}},
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    level TEXT NOT NULL CHECK (level IN ('admin', 'reviewer', 'viewer')),
    created_at BIGINT NOT NULL,
    UNIQUE (project_id, user_id)
);
CREATE INDEX project_users_user_id ON project_users (user_id);
CREATE TABLE tokens (
    id {{id}},
    kind TEXT NOT NULL CHECK (kind IN ('project', 'personal', 'short_lived')),
    token_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT,
    bound_commit TEXT,
    revoked_at BIGINT,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    CHECK ((kind = 'personal') = (user_id IS NOT NULL)),
    CHECK ((kind = 'personal') = (project_id IS NULL))
);
CREATE INDEX tokens_prefix ON tokens (prefix);
CREATE INDEX tokens_project_id ON tokens (project_id);
CREATE INDEX tokens_user_id ON tokens (user_id);
CREATE TABLE token_scopes (
    token_id BIGINT NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (token_id, account_id)
);
CREATE INDEX token_scopes_account_id ON token_scopes (account_id);
)SQL";

// The durable job queue (loupe/jobs/job_queue.hpp): workers pick `queued` rows whose run_at has
// come, or `running` rows whose lease ran out, hence the (status, run_at) index.
constexpr const char* jobs_sql = R"SQL(
CREATE TABLE jobs (
    id {{id}},
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 5,
    run_at BIGINT NOT NULL,
    lease_until BIGINT,
    locked_by TEXT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX jobs_status_run_at ON jobs (status, run_at);
)SQL";

// The blob sweep sees only the rows of loaded plugins: this remembers, per plugin, whether its
// tables may hold blob keys (it registered a reference finder when it was last loaded).
constexpr const char* blob_holders_sql = R"SQL(
CREATE TABLE blob_holders (
    plugin TEXT PRIMARY KEY,
    holds_blob_keys INTEGER NOT NULL CHECK (holds_blob_keys IN (0, 1)),
    recorded_at BIGINT NOT NULL
);
)SQL";

// A short-lived token a CI run exchanged is bound to what the run vouches for: its commit
// (bound_commit, since the first step), its branch, and whether its head is a fork's.
constexpr const char* token_run_binding_sql = R"SQL(
ALTER TABLE tokens ADD COLUMN bound_branch TEXT;
ALTER TABLE tokens ADD COLUMN untrusted_head INTEGER NOT NULL DEFAULT 0 CHECK (untrusted_head IN (0, 1));
)SQL";

// A user's email address (from an identity provider's verified claim or `loupe admin`): kept
// lower-cased, one user per address.
constexpr const char* user_email_sql = R"SQL(
ALTER TABLE users ADD COLUMN email TEXT;
CREATE UNIQUE INDEX users_email ON users (email);
)SQL";

// A name a person gives their own personal access token (the settings page), to tell them apart.
constexpr const char* token_name_sql = R"SQL(
ALTER TABLE tokens ADD COLUMN name TEXT;
)SQL";

}  // namespace

MigrationTrack core_migration_track() {
    return MigrationTrack{
        "core",
        {
            MigrationStep{1, "identity", identity_sql},
            MigrationStep{2, "jobs", jobs_sql},
            MigrationStep{3, "blob holders", blob_holders_sql},
            MigrationStep{4, "tokens bound to a CI run's branch", token_run_binding_sql},
            MigrationStep{5, "user email addresses", user_email_sql},
            MigrationStep{6, "personal access token names", token_name_sql},
        },
    };
}

}  // namespace loupe
