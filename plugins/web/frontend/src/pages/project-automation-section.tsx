// A project's automation rules on its settings page, for its administrators: each rule with
// its events, conditions and targets, its last runs with each action's outcome, a "Send a test
// message" button (the rule's messages now, about the newest build of the base branch, marked
// as a test) and Deactivate. A new rule is written as the JSON definition `argos automation
// create --definition` takes; its webhook signing secret is shown once.
import { useEffect, useState } from "preact/hooks";
import { api, type AutomationRule, type AutomationRun } from "../api";
import { SecretOnce } from "../components/secret-once";
import { relativeTime } from "../format";
import { useAction } from "../hooks/use-action";

const example = JSON.stringify(
  {
    name: "Changes on main",
    events: ["build.completed"],
    conditions: [{ type: "build-conclusion", value: "changes-detected" }],
    actions: [{ type: "sendWebhook", payload: { url: "https://ci.example.com/hooks/loupe" } }],
  },
  null,
  2,
);

function target(action: AutomationRule["actions"][number]) {
  const payload = action.actionPayload ?? {};
  const where = payload.url ?? payload.webhookId ?? payload.name ?? payload.slackId ?? "";
  return `${action.action}${where ? ` → ${String(where)}` : ""}`;
}

function Runs({ runs }: { runs: AutomationRun[] }) {
  if (!runs.length) return <p class="muted small">No run yet.</p>;
  return (
    <ul class="plain-list runs-list" aria-label="Last runs">
      {runs.map((run) => (
        <li key={run.id}>
          <span>
            {run.event === "test" ? "Test" : run.event}
            {run.buildNumber > 0 && ` · build #${run.buildNumber}`}
          </span>
          <span class="muted small">
            {run.actions.map((a) => `${a.action}: ${a.status}${a.responseStatus ? ` (${a.responseStatus})` : ""}${a.error ? ` ${a.error}` : ""}`).join(", ")} ·{" "}
            {relativeTime(run.createdAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function RuleCard({ account, project, rule, onChange }: { account: string; project: string; rule: AutomationRule; onChange: () => void }) {
  const [runs, setRuns] = useState<AutomationRun[] | null>(null);
  const { error, status, run } = useAction(() => loadRuns());
  const loadRuns = () => api.automationRuns(account, project, rule.id).then((page) => setRuns(page.results), () => setRuns([]));
  useEffect(() => {
    loadRuns();
  }, [rule.id]);
  // A delivery is a job: the run's outcome shows a moment later.
  useEffect(() => {
    if (!runs?.some((run) => run.actions.some((a) => a.status === "pending"))) return;
    const timer = setTimeout(loadRuns, 1000);
    return () => clearTimeout(timer);
  }, [runs]);

  const act = async (action: () => Promise<unknown>, done: string) => {
    if (await run(action, done)) onChange();
  };

  return (
    <li class="rule-card" aria-label={`Rule ${rule.name}`}>
      <div class="rule-head">
        <strong>{rule.name}</strong>
        {!rule.active && <span class="badge">inactive</span>}
        <span class="muted small">{rule.events.join(", ")}</span>
      </div>
      <p class="muted small">{rule.actions.map(target).join("; ")}</p>
      {runs && <Runs runs={runs} />}
      <p class="rule-actions">
        <button type="button" class="button button-small" onClick={() => act(() => api.testAutomationRule(account, project, rule.id), "Test message queued")}>
          Send a test message
        </button>
        {rule.active && (
          <button type="button" class="link-button small" onClick={() => act(() => api.deactivateAutomationRule(account, project, rule.id), "Deactivated")}>
            Deactivate
          </button>
        )}
        <span class="muted small" role="status" aria-live="polite">{status ?? ""}</span>
      </p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </li>
  );
}

export function ProjectAutomationSection({ account, project }: { account: string; project: string }) {
  const [rules, setRules] = useState<AutomationRule[] | null>(null);
  const [definition, setDefinition] = useState(example);
  const [created, setCreated] = useState<{ name: string; secret?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => api.automationRules(account, project).then((page) => setRules(page.results), (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [account, project]);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(definition);
    } catch (e) {
      setError(`The definition is not JSON: ${(e as Error).message}`);
      return;
    }
    try {
      const rule = await api.createAutomationRule(account, project, parsed);
      setCreated({ name: rule.name, secret: rule.webhookSecret });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-label="Automation rules">
      <h2 class="section-title">Automation rules</h2>
      <p class="muted small">When a build completes or is reviewed, a rule whose conditions hold posts to Slack, Teams, Discord or a signed webhook.</p>
      {rules && rules.length === 0 && <p class="muted">No rule yet.</p>}
      {rules && rules.length > 0 && (
        <ul class="rule-list">
          {rules.map((rule) => (
            <RuleCard key={rule.id} account={account} project={project} rule={rule} onChange={load} />
          ))}
        </ul>
      )}
      {created?.secret && (
        <SecretOnce label="Webhook signing secret" value={created.secret}>
          <strong>{created.name}</strong> signs its webhooks with this secret.
        </SecretOnce>
      )}
      <form class="rule-form" onSubmit={create}>
        <label class="field">
          <span>New rule (JSON definition, as `argos automation create --definition`)</span>
          <textarea rows={9} value={definition} spellcheck={false} onInput={(e) => setDefinition((e.target as HTMLTextAreaElement).value)} />
        </label>
        <button type="submit" class="button">Create rule</button>
      </form>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
