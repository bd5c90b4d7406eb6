#include "store/automation_migrations.hpp"

namespace loupe::automation {

void add_automation_migrations(Migrations& migrations) {
    migrations.add(1, "create automation rules, secrets, runs and action runs", R"SQL(
CREATE TABLE automation_rules (
  id {{id}},
  project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  events TEXT NOT NULL,
  conditions TEXT NOT NULL,
  actions TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX automation_rules_project ON automation_rules (project_id, active);
CREATE TABLE automation_rule_secrets (
  rule_id BIGINT PRIMARY KEY REFERENCES automation_rules(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE automation_runs (
  id {{id}},
  rule_id BIGINT NOT NULL REFERENCES automation_rules(id) ON DELETE CASCADE,
  project_id BIGINT NOT NULL,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  build_id BIGINT NOT NULL,
  build_number BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (rule_id, event_id)
);
CREATE INDEX automation_runs_rule ON automation_runs (rule_id, id);
CREATE TABLE automation_action_runs (
  id {{id}},
  run_id BIGINT NOT NULL REFERENCES automation_runs(id) ON DELETE CASCADE,
  action_index INTEGER NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  message TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  response_status INTEGER,
  last_error TEXT,
  job_id BIGINT,
  completed_at BIGINT,
  updated_at BIGINT NOT NULL,
  UNIQUE (run_id, action_index)
)
)SQL");
    // The chat services a team's administrators register for its rules: one Slack bot token
    // (name "bot"), Teams and Discord webhooks by name. The secret is sealed (AES-256-GCM with
    // the plugin's key file); `hint` is its last characters, to recognise it.
    migrations.add(2, "chat targets of accounts", R"SQL(
CREATE TABLE automation_chat_targets (
  id {{id}},
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('slack', 'teams', 'discord')),
  name TEXT NOT NULL,
  sealed_secret TEXT NOT NULL,
  hint TEXT NOT NULL,
  created_by BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (account_id, kind, name)
)
)SQL");
}

}  // namespace loupe::automation
