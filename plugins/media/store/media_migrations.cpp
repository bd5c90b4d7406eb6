#include "store/media_migrations.hpp"

namespace loupe::media {

void add_media_migrations(Migrations& migrations) {
    // A media is one name (with its before/after state) of a project, on a branch or a pull
    // request; each upload of other bytes under that identity is a new version. Versions keep
    // the content-addressed blob key; the file token is the unguessable path its bytes are
    // served at.
    migrations.add(1, "create media and their versions", R"SQL(
CREATE TABLE media (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  state TEXT CHECK (state IN ('before', 'after')),
  description TEXT,
  branch TEXT,
  pr_number BIGINT,
  visibility TEXT NOT NULL CHECK (visibility IN ('team', 'public')),
  share_token TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX media_project ON media (project_id, created_at);
CREATE INDEX media_identity ON media (project_id, name);
CREATE TABLE media_versions (
  id {{id}},
  media_id BIGINT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  number BIGINT NOT NULL,
  blob_key TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  width BIGINT,
  height BIGINT,
  file_token TEXT NOT NULL UNIQUE,
  uploaded_at BIGINT,
  created_at BIGINT NOT NULL,
  UNIQUE (media_id, number)
);
CREATE INDEX media_versions_blob ON media_versions (blob_key)
)SQL");
}

}  // namespace loupe::media
