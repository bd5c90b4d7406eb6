#include "migrations.hpp"

namespace loupe::reviews {

// A review belongs to one build and one user; `pending` is a draft that comments join until it
// is submitted. Per-snapshot decisions are kept with the review. `inherited_from` names the
// earlier review an automatic approval carries forward.
void add_migrations(Migrations& migrations) {
    migrations.add(1, "create reviews and their snapshot decisions", R"SQL(
CREATE TABLE reviews (
  id {{id}},
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'commented')),
  inherited_from BIGINT REFERENCES reviews(id) ON DELETE SET NULL,
  dismissed_at BIGINT,
  dismissed_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  submitted_at BIGINT,
  updated_at BIGINT NOT NULL
);
CREATE INDEX reviews_build ON reviews (build_id, user_id);
CREATE TABLE review_snapshots (
  review_id BIGINT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  diff_id BIGINT NOT NULL REFERENCES screenshot_diffs(id) ON DELETE CASCADE,
  conclusion TEXT NOT NULL CHECK (conclusion IN ('approved', 'rejected')),
  PRIMARY KEY (review_id, diff_id)
)
)SQL");
    // Comments: a root comment starts a thread (thread_id NULL), replies point at the root.
    // `public_id` is what the API shows ("comment-" and a random code); deleted comments are
    // kept (deleted_at) so their thread and reactions stay consistent.
    migrations.add(2, "create comments, reactions and subscriptions", R"SQL(
CREATE TABLE comments (
  id {{id}},
  public_id TEXT NOT NULL UNIQUE,
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  thread_id BIGINT REFERENCES comments(id) ON DELETE CASCADE,
  review_id BIGINT REFERENCES reviews(id) ON DELETE SET NULL,
  author_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  body TEXT NOT NULL,
  text TEXT NOT NULL,
  screenshot_diff_id BIGINT REFERENCES screenshot_diffs(id) ON DELETE SET NULL,
  anchor TEXT,
  resolved_at BIGINT,
  edited_at BIGINT,
  deleted_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX comments_build ON comments (build_id, created_at);
CREATE INDEX comments_thread ON comments (thread_id);
CREATE INDEX comments_review ON comments (review_id);
CREATE TABLE comment_reactions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id, emoji)
);
CREATE TABLE thread_subscriptions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id)
);
CREATE TABLE build_subscriptions (
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (build_id, user_id)
)
)SQL");
    // Deleting diffs (retention) checks the rows that point at each one: these make that a
    // lookup instead of a scan.
    migrations.add(3, "indexes on the rows pointing at diffs", R"SQL(
CREATE INDEX review_snapshots_diff ON review_snapshots (diff_id);
CREATE INDEX comments_screenshot_diff ON comments (screenshot_diff_id)
)SQL");
    // The users asked to review a build, and who asked; one request per user and build.
    migrations.add(4, "create requested reviewers of builds", R"SQL(
CREATE TABLE build_requested_reviewers (
  build_id BIGINT NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (build_id, user_id)
);
CREATE INDEX build_requested_reviewers_user ON build_requested_reviewers (user_id)
)SQL");
    // Comments on tests (beyond builds): a comment belongs to exactly one build or one test.
    // PostgreSQL drops the NOT NULL; SQLite rebuilds the table (and the two that point at it,
    // whose references a rename carries to the old table), keeping every row and id.
    migrations.add(5, "comments on tests, and test subscriptions", R"SQL(
{{postgresql}}
ALTER TABLE comments ALTER COLUMN build_id DROP NOT NULL;
ALTER TABLE comments ADD COLUMN test_id BIGINT REFERENCES build_tests(id) ON DELETE CASCADE;
ALTER TABLE comments ADD CONSTRAINT comments_one_subject CHECK ((build_id IS NULL) <> (test_id IS NULL));
{{/postgresql}}
{{sqlite}}
PRAGMA defer_foreign_keys = ON;
DROP INDEX comments_build;
DROP INDEX comments_thread;
DROP INDEX comments_review;
DROP INDEX comments_screenshot_diff;
ALTER TABLE comments RENAME TO comments_before_tests;
CREATE TABLE comments (
  id {{id}},
  public_id TEXT NOT NULL UNIQUE,
  build_id BIGINT REFERENCES builds(id) ON DELETE CASCADE,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  thread_id BIGINT REFERENCES comments(id) ON DELETE CASCADE,
  review_id BIGINT REFERENCES reviews(id) ON DELETE SET NULL,
  author_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  body TEXT NOT NULL,
  text TEXT NOT NULL,
  screenshot_diff_id BIGINT REFERENCES screenshot_diffs(id) ON DELETE SET NULL,
  anchor TEXT,
  resolved_at BIGINT,
  edited_at BIGINT,
  deleted_at BIGINT,
  created_at BIGINT NOT NULL,
  test_id BIGINT REFERENCES build_tests(id) ON DELETE CASCADE,
  CONSTRAINT comments_one_subject CHECK ((build_id IS NULL) <> (test_id IS NULL))
);
INSERT INTO comments (id, public_id, build_id, project_id, thread_id, review_id, author_id, body, text, screenshot_diff_id, anchor, resolved_at, edited_at, deleted_at, created_at)
  SELECT id, public_id, build_id, project_id, thread_id, review_id, author_id, body, text, screenshot_diff_id, anchor, resolved_at, edited_at, deleted_at, created_at FROM comments_before_tests;
ALTER TABLE comment_reactions RENAME TO comment_reactions_before_tests;
CREATE TABLE comment_reactions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id, emoji)
);
INSERT INTO comment_reactions (comment_id, user_id, emoji, created_at)
  SELECT comment_id, user_id, emoji, created_at FROM comment_reactions_before_tests;
DROP TABLE comment_reactions_before_tests;
ALTER TABLE thread_subscriptions RENAME TO thread_subscriptions_before_tests;
CREATE TABLE thread_subscriptions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id)
);
INSERT INTO thread_subscriptions (comment_id, user_id, subscribed, updated_at)
  SELECT comment_id, user_id, subscribed, updated_at FROM thread_subscriptions_before_tests;
DROP TABLE thread_subscriptions_before_tests;
DROP TABLE comments_before_tests;
CREATE INDEX comments_build ON comments (build_id, created_at);
CREATE INDEX comments_thread ON comments (thread_id);
CREATE INDEX comments_review ON comments (review_id);
CREATE INDEX comments_screenshot_diff ON comments (screenshot_diff_id);
{{/sqlite}}
CREATE INDEX comments_test ON comments (test_id, created_at);
CREATE TABLE test_subscriptions (
  test_id BIGINT NOT NULL REFERENCES build_tests(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (test_id, user_id)
)
)SQL");
    // Comments on media (the media plugin's objects, so no foreign key: the media plugin asks
    // for them to be deleted with their media): a comment belongs to exactly one of a build, a
    // test or a media, and a media's comment keeps the version its author was looking at.
    // PostgreSQL swaps the constraint; SQLite rebuilds the table as migration 5 does.
    migrations.add(6, "comments on media", R"SQL(
{{postgresql}}
ALTER TABLE comments ADD COLUMN media_id BIGINT;
ALTER TABLE comments ADD COLUMN media_version_id BIGINT;
ALTER TABLE comments DROP CONSTRAINT comments_one_subject;
ALTER TABLE comments ADD CONSTRAINT comments_one_subject CHECK ((CASE WHEN build_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN test_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN media_id IS NULL THEN 0 ELSE 1 END) = 1);
{{/postgresql}}
{{sqlite}}
PRAGMA defer_foreign_keys = ON;
DROP INDEX comments_build;
DROP INDEX comments_thread;
DROP INDEX comments_review;
DROP INDEX comments_screenshot_diff;
DROP INDEX comments_test;
ALTER TABLE comments RENAME TO comments_before_media;
CREATE TABLE comments (
  id {{id}},
  public_id TEXT NOT NULL UNIQUE,
  build_id BIGINT REFERENCES builds(id) ON DELETE CASCADE,
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  thread_id BIGINT REFERENCES comments(id) ON DELETE CASCADE,
  review_id BIGINT REFERENCES reviews(id) ON DELETE SET NULL,
  author_id BIGINT REFERENCES users(id) ON DELETE SET NULL,
  body TEXT NOT NULL,
  text TEXT NOT NULL,
  screenshot_diff_id BIGINT REFERENCES screenshot_diffs(id) ON DELETE SET NULL,
  anchor TEXT,
  resolved_at BIGINT,
  edited_at BIGINT,
  deleted_at BIGINT,
  created_at BIGINT NOT NULL,
  test_id BIGINT REFERENCES build_tests(id) ON DELETE CASCADE,
  media_id BIGINT,
  media_version_id BIGINT,
  CONSTRAINT comments_one_subject CHECK ((CASE WHEN build_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN test_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN media_id IS NULL THEN 0 ELSE 1 END) = 1)
);
INSERT INTO comments (id, public_id, build_id, project_id, thread_id, review_id, author_id, body, text, screenshot_diff_id, anchor, resolved_at, edited_at, deleted_at, created_at, test_id)
  SELECT id, public_id, build_id, project_id, thread_id, review_id, author_id, body, text, screenshot_diff_id, anchor, resolved_at, edited_at, deleted_at, created_at, test_id FROM comments_before_media;
ALTER TABLE comment_reactions RENAME TO comment_reactions_before_media;
CREATE TABLE comment_reactions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id, emoji)
);
INSERT INTO comment_reactions (comment_id, user_id, emoji, created_at)
  SELECT comment_id, user_id, emoji, created_at FROM comment_reactions_before_media;
DROP TABLE comment_reactions_before_media;
ALTER TABLE thread_subscriptions RENAME TO thread_subscriptions_before_media;
CREATE TABLE thread_subscriptions (
  comment_id BIGINT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (comment_id, user_id)
);
INSERT INTO thread_subscriptions (comment_id, user_id, subscribed, updated_at)
  SELECT comment_id, user_id, subscribed, updated_at FROM thread_subscriptions_before_media;
DROP TABLE thread_subscriptions_before_media;
DROP TABLE comments_before_media;
CREATE INDEX comments_build ON comments (build_id, created_at);
CREATE INDEX comments_thread ON comments (thread_id);
CREATE INDEX comments_review ON comments (review_id);
CREATE INDEX comments_screenshot_diff ON comments (screenshot_diff_id);
CREATE INDEX comments_test ON comments (test_id, created_at);
{{/sqlite}}
CREATE INDEX comments_media ON comments (media_id, created_at)
)SQL");
}

}  // namespace loupe::reviews
