// A project's settings form, for its administrators: every setting `argos project update`
// changes, grouped as a person thinks of them. A field appears only when the project resource
// carries it (its plugin is enabled). Save sends only what changed, in one PATCH, which the
// server applies in one transaction or refuses whole, naming the field.
import { useEffect, useState } from "preact/hooks";
import { api, type ProjectDetails } from "../api";

type Draft = Record<string, string | boolean>;

interface FieldSpec {
  key: string;
  label: string;
  hint?: string;
  kind: "text" | "flag" | "choice" | "number";
  choices?: [string, string][];
  /** The field in the project resource it comes from, when it is not `key` itself. */
  present?: string;
}

const groups: { title: string; fields: FieldSpec[] }[] = [
  {
    title: "Baselines",
    fields: [
      { key: "defaultBaseBranch", label: "Default base branch", kind: "text", hint: "Builds compare with the latest build of this branch." },
      { key: "autoApprovedBranchGlob", label: "Auto-approved branches", kind: "text", hint: "A glob (main, release/*): builds on these branches are approved as they come and become baselines." },
    ],
  },
  {
    title: "Ignoring changes",
    fields: [
      { key: "ignoreEnabled", present: "ignoreConfig", label: "Ignore the changes reviewers chose to ignore", kind: "flag" },
      { key: "autoIgnoreChanges", present: "ignoreConfig", label: "Ignore a change by itself after it came back", kind: "number", hint: "times (empty: never)" },
    ],
  },
  {
    title: "Access",
    fields: [
      { key: "private", label: "Private: only the team and its contributors see the project", kind: "flag" },
      {
        key: "defaultUserLevel", label: "Level of the team's contributors without their own", kind: "choice",
        choices: [["", "None"], ["viewer", "Viewer"], ["reviewer", "Reviewer"], ["admin", "Admin"]],
      },
    ],
  },
  {
    title: "Git and CI",
    fields: [
      { key: "summaryCheck", label: "Summary check on commits", kind: "choice", choices: [["auto", "Auto"], ["always", "Always"], ["never", "Never"]] },
      { key: "prCommentEnabled", label: "Comment on pull requests", kind: "flag" },
      { key: "mergedPullRequestApproval", label: "Builds of merged pull requests count as approved baselines", kind: "flag" },
      { key: "tokenlessAuthEnabled", label: "Uploads without a token from the linked repository's CI", kind: "flag" },
      { key: "githubActionsOidcEnabled", label: "GitHub Actions OpenID Connect sign-in", kind: "flag" },
      { key: "gitlabCiOidcEnabled", label: "GitLab CI OpenID Connect sign-in", kind: "flag" },
    ],
  },
  {
    title: "Deployments",
    fields: [
      { key: "deploymentEnabled", label: "Accept deployments", kind: "flag" },
      { key: "deploymentProductionBranchGlob", label: "Production branches", kind: "text", hint: "A glob: a deployment on these branches is the production one." },
      {
        key: "deploymentAuth", label: "Who may open the deployed sites", kind: "choice",
        choices: [["project", "Whoever sees the project"], ["public", "Anyone"], ["private", "Private links only"], ["domain-private", "Private on the custom domain"]],
      },
    ],
  },
  {
    title: "Retention",
    fields: [{ key: "retentionDays", label: "Keep builds for", kind: "number", hint: "days (empty: the server's default)" }],
  },
];

function draftOf(project: ProjectDetails): Draft {
  const draft: Draft = {};
  for (const group of groups)
    for (const field of group.fields) {
      if (field.present) continue;
      const value = project[field.key];
      if (value === undefined) continue;
      draft[field.key] = typeof value === "boolean" ? value : value === null ? "" : String(value);
    }
  if (project.ignoreConfig) {
    draft.ignoreEnabled = project.ignoreConfig.enabled;
    draft.autoIgnoreChanges = project.ignoreConfig.autoIgnore ? String(project.ignoreConfig.autoIgnore.changes) : "";
  }
  return draft;
}

/** The PATCH body: the fields whose value differs from `saved`, in the resource's shape. */
function changesOf(saved: Draft, draft: Draft): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const numberOrNull = (text: string) => (text.trim() === "" ? null : Number(text));
  for (const [key, value] of Object.entries(draft)) {
    if (saved[key] === value || key === "ignoreEnabled" || key === "autoIgnoreChanges") continue;
    if (key === "retentionDays") changes[key] = numberOrNull(value as string);
    else if (key === "defaultUserLevel") changes[key] = value === "" ? null : value;
    else changes[key] = typeof value === "string" ? value.trim() : value;
  }
  if (saved.ignoreEnabled !== draft.ignoreEnabled || saved.autoIgnoreChanges !== draft.autoIgnoreChanges) {
    const changes_ = numberOrNull(draft.autoIgnoreChanges as string);
    changes.ignoreConfig = { enabled: draft.ignoreEnabled, autoIgnore: changes_ === null ? null : { changes: changes_ } };
  }
  return changes;
}

export function ProjectGeneralSection({ project, admin, onSaved }: { project: ProjectDetails; admin: boolean; onSaved: (next: ProjectDetails) => void }) {
  const saved = draftOf(project);
  const [draft, setDraft] = useState<Draft>(saved);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setDraft(draftOf(project)), [project]);

  const changes = changesOf(saved, draft);
  const dirty = Object.keys(changes).length > 0;
  const set = (key: string, value: string | boolean) => {
    setStatus(null);
    setDraft({ ...draft, [key]: value });
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSaved(await api.updateProject(project.account.slug, project.name, changes));
      setStatus("Saved");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Project settings">
      <form class="settings-form" onSubmit={save}>
        <fieldset disabled={!admin || busy} class="settings-group">
          {groups.map((group) => {
            const shown = group.fields.filter((field) => field.key in draft);
            if (!shown.length) return null;
            return (
              <div key={group.title} class="settings-block">
                <h2 class="section-title">{group.title}</h2>
                {shown.map((field) => (
                  <Field key={field.key} field={field} value={draft[field.key]} onChange={(value) => set(field.key, value)} />
                ))}
              </div>
            );
          })}
        </fieldset>
        {admin && (
          <p class="settings-actions">
            <button type="submit" class="button button-primary" disabled={!dirty || busy}>Save changes</button>
            <span class="muted small" role="status" aria-live="polite">{status ?? (dirty ? "Unsaved changes" : "")}</span>
          </p>
        )}
        {error && <p class="form-error" role="alert">{error}</p>}
      </form>
    </section>
  );
}

function Field({ field, value, onChange }: { field: FieldSpec; value: string | boolean; onChange: (value: string | boolean) => void }) {
  if (field.kind === "flag")
    return (
      <label class="setting">
        <input type="checkbox" checked={value as boolean} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
        <span>{field.label}</span>
      </label>
    );
  return (
    <label class="field field-row">
      <span>{field.label}</span>
      {field.kind === "choice" ? (
        <select value={value as string} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
          {field.choices!.map(([choice, label]) => (
            <option key={choice} value={choice}>{label}</option>
          ))}
        </select>
      ) : (
        <span class="field-input">
          <input type={field.kind === "number" ? "number" : "text"} min={field.kind === "number" ? 1 : undefined} value={value as string}
            onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
          {field.hint && <span class="muted small">{field.hint}</span>}
        </span>
      )}
    </label>
  );
}
