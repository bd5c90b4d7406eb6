#include "migrations.hpp"

namespace loupe::builds {

void add_migrations(Migrations& migrations) {
    migrations.add(1, "create builds, screenshots, shards and tests", R"SQL(
CREATE TABLE build_counters (
  project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  last_number BIGINT NOT NULL
);
CREATE TABLE builds (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  number BIGINT NOT NULL,
  name TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  branch TEXT NOT NULL,
  pr_number BIGINT,
  pr_head_commit TEXT,
  reference_commit TEXT,
  reference_branch TEXT,
  parent_commits TEXT,
  mode TEXT NOT NULL,
  ci_provider TEXT,
  argos_sdk TEXT,
  run_id TEXT,
  run_attempt BIGINT,
  type TEXT,
  job_status TEXT NOT NULL,
  parallel INTEGER NOT NULL,
  parallel_nonce TEXT,
  batch_count INTEGER NOT NULL,
  total_batch INTEGER,
  partial INTEGER NOT NULL,
  merge_queue INTEGER NOT NULL,
  merge_queue_pr_numbers TEXT,
  subset INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  valid INTEGER NOT NULL,
  screenshot_count INTEGER NOT NULL,
  metadata TEXT,
  conclusion TEXT,
  stats TEXT,
  concluded_at BIGINT,
  base_build_id BIGINT,
  baseline_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  finalized_at BIGINT,
  UNIQUE (project_id, number)
);
CREATE INDEX builds_project_nonce ON builds (project_id, parallel_nonce, name);
CREATE INDEX builds_project_commit ON builds (project_id, commit_sha);
CREATE TABLE build_tests (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  build_name TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, build_name, name)
);
CREATE TABLE screenshots (
  id {{id}},
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  blob_key TEXT NOT NULL,
  content_type TEXT NOT NULL,
  base_names TEXT,
  parent_name TEXT,
  metadata TEXT,
  pw_trace_key TEXT,
  threshold DOUBLE PRECISION,
  test_id BIGINT REFERENCES build_tests(id),
  width INTEGER,
  height INTEGER,
  created_at BIGINT NOT NULL,
  UNIQUE (build_id, name)
);
CREATE INDEX screenshots_blob_key ON screenshots (blob_key);
CREATE TABLE build_shards (
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  shard_key TEXT NOT NULL,
  shard_index INTEGER,
  completed INTEGER NOT NULL,
  metadata TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (build_id, shard_key)
)
)SQL");
    migrations.add(2, "create screenshot diffs, test counters and ignored changes", R"SQL(
CREATE TABLE screenshot_diffs (
  id {{id}},
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  base_screenshot_id BIGINT REFERENCES screenshots(id) ON DELETE CASCADE,
  head_screenshot_id BIGINT REFERENCES screenshots(id) ON DELETE CASCADE,
  test_id BIGINT REFERENCES build_tests(id) ON DELETE SET NULL,
  job_status TEXT NOT NULL CHECK (job_status IN ('pending', 'complete', 'error')),
  score DOUBLE PRECISION,
  mask_key TEXT,
  fingerprint TEXT,
  group_key TEXT,
  ignored INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX screenshot_diffs_build ON screenshot_diffs (build_id, job_status);
CREATE INDEX screenshot_diffs_build_fingerprint ON screenshot_diffs (build_id, fingerprint);
CREATE TABLE test_stats_builds (
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  day BIGINT NOT NULL,
  value BIGINT NOT NULL,
  PRIMARY KEY (test_id, day)
);
CREATE TABLE test_stats_fingerprints (
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  day BIGINT NOT NULL,
  value BIGINT NOT NULL,
  PRIMARY KEY (test_id, fingerprint, day)
);
CREATE TABLE ignored_changes (
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, test_id, fingerprint)
);
CREATE INDEX builds_project_name_commit ON builds (project_id, name, commit_sha);
CREATE INDEX builds_project_pr_head ON builds (project_id, pr_head_commit)
)SQL");
    // The review state the reviews plugin records, and the per-project settings this plugin
    // owns (a project without a row has the defaults).
    migrations.add(3, "review state on builds, build settings, ignore audit", R"SQL(
ALTER TABLE builds ADD COLUMN review_state TEXT;
ALTER TABLE builds ADD COLUMN review_details TEXT;
CREATE INDEX builds_project_name_branch ON builds (project_id, name, branch);
CREATE INDEX builds_project_created ON builds (project_id, created_at);
CREATE TABLE build_settings (
  project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  auto_approved_branch_glob TEXT,
  ignore_enabled INTEGER NOT NULL DEFAULT 1 CHECK (ignore_enabled IN (0, 1)),
  auto_ignore_changes INTEGER DEFAULT 3
);
CREATE TABLE ignored_change_audit (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('ignore', 'unignore')),
  user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX ignored_change_audit_change ON ignored_change_audit (project_id, test_id, fingerprint);
CREATE INDEX screenshot_diffs_test_fingerprint ON screenshot_diffs (test_id, fingerprint)
)SQL");
    // Account analytics count builds per project and UTC day over a time range: this index
    // yields them already in (project, day) order and covers every column the count reads, so
    // the database neither sorts nor visits the table rows. (Build times are after 1970, where
    // integer division is the floor.)
    migrations.add(4, "index covering build activity per day", R"SQL(
CREATE INDEX builds_project_day_activity ON builds
  (project_id, (created_at / 86400000), created_at, screenshot_count, conclusion, review_state)
)SQL");
    // Retention: a project's own number of days (NULL: the server's default), the schedule of
    // the daily prune job (one row), and the indexes that deleting builds needs: the foreign
    // keys from diffs to screenshots are checked for every deleted screenshot, and the prune
    // asks which builds still use a build as their baseline.
    migrations.add(5, "retention settings, prune schedule, indexes for deleting builds", R"SQL(
ALTER TABLE build_settings ADD COLUMN retention_days INTEGER CHECK (retention_days >= 0);
CREATE TABLE build_prune_schedule (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  sequence BIGINT NOT NULL,
  next_run_at BIGINT NOT NULL,
  last_run_at BIGINT,
  last_report TEXT
);
CREATE INDEX screenshot_diffs_base_screenshot ON screenshot_diffs (base_screenshot_id);
CREATE INDEX screenshot_diffs_head_screenshot ON screenshot_diffs (head_screenshot_id);
CREATE INDEX builds_base_build ON builds (base_build_id)
)SQL");
    // Which blobs each project holds (store/project_blobs.hpp): a build may name only those, so
    // a project can neither reuse another project's file by its key nor learn that it exists.
    // What the builds referenced so far is held already. Quotas: a project's own limits on the
    // bytes it holds and the screenshots of one build (NULL: the server's defaults). Builds
    // sent by a CI run of a fork are baselines only once a review accepted them.
    migrations.add(6, "blobs held per project, quotas, builds from forks", R"SQL(
CREATE TABLE project_blobs (
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  blob_key TEXT NOT NULL,
  size BIGINT NOT NULL DEFAULT 0,
  claimed_at BIGINT NOT NULL,
  held INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1)),
  PRIMARY KEY (project_id, blob_key)
);
INSERT INTO project_blobs (project_id, blob_key, size, claimed_at, held)
  SELECT project_id, blob_key, 0, 0, 1 FROM (
    SELECT b.project_id AS project_id, s.blob_key AS blob_key
      FROM screenshots s JOIN builds b ON b.id = s.build_id
    UNION
    SELECT b.project_id, s.pw_trace_key
      FROM screenshots s JOIN builds b ON b.id = s.build_id WHERE s.pw_trace_key IS NOT NULL
  ) held_before;
ALTER TABLE build_settings ADD COLUMN max_stored_bytes BIGINT CHECK (max_stored_bytes >= 0);
ALTER TABLE build_settings ADD COLUMN max_screenshots_per_build INTEGER
  CHECK (max_screenshots_per_build >= 0);
ALTER TABLE builds ADD COLUMN untrusted_head INTEGER NOT NULL DEFAULT 0
  CHECK (untrusted_head IN (0, 1))
)SQL");
    // Upload claims, one row per POST /builds (the keys it handed targets for, as a JSON array)
    // instead of one row per key in project_blobs: thousands of random-key index entries per
    // build made POST /builds slower as a project's holdings grew. Claims older than their
    // window are deleted as new ones are written; the per-key claims of before go.
    migrations.add(7, "upload claims per build", R"SQL(
CREATE TABLE upload_claims (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  claimed_at BIGINT NOT NULL,
  blob_keys TEXT NOT NULL
);
CREATE INDEX upload_claims_build ON upload_claims (build_id);
CREATE INDEX upload_claims_project_claimed_at ON upload_claims (project_id, claimed_at);
DELETE FROM project_blobs WHERE held = 0
)SQL");
    // Masks drawn on a test: rectangles (in the screenshot's pixels) whose pixels no later diff
    // of the test counts, on every branch or one. A removed mask keeps its row (who removed it
    // and when), so the audit stays.
    migrations.add(8, "masks on tests", R"SQL(
CREATE TABLE test_masks (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  branch TEXT,
  x BIGINT NOT NULL,
  y BIGINT NOT NULL,
  width BIGINT NOT NULL,
  height BIGINT NOT NULL,
  note TEXT NOT NULL,
  created_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  removed_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  removed_at BIGINT
);
CREATE INDEX test_masks_test ON test_masks (test_id, removed_at)
)SQL");
    // Pull requests the git provider said were merged (a merged pull request's builds count as
    // approved baselines when the project says so), and how each build's baseline was approved.
    migrations.add(9, "merged pull requests, baseline approval", R"SQL(
CREATE TABLE merged_pull_requests (
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  pr_number BIGINT NOT NULL,
  merged_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, pr_number)
);
ALTER TABLE build_settings ADD COLUMN merged_pull_request_approval INTEGER NOT NULL DEFAULT 1
  CHECK (merged_pull_request_approval IN (0, 1));
ALTER TABLE builds ADD COLUMN baseline_approval TEXT
)SQL");
}

}  // namespace loupe::builds
