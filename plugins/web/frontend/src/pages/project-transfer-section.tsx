// Moving a project to another account, for its administrators: the target is one of the
// person's accounts (the server also requires them to administer it), and the move waits for
// the project's name typed in full, since every URL and CI setting of the project changes.
import { useState } from "preact/hooks";
import { api } from "../api";
import { navigate, paths } from "../router";

export function ProjectTransferSection({ account, project, accounts }: { account: string; project: string; accounts: string[] }) {
  const targets = accounts.filter((slug) => slug !== account);
  const [target, setTarget] = useState(targets[0] ?? "");
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (!targets.length) return null;

  const transfer = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const moved = await api.transferProject(account, project, target);
      navigate(paths.projectSettings(moved.account.slug, moved.name));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-label="Transfer" class="danger-zone">
      <h2 class="section-title">Transfer the project</h2>
      <p class="muted small">
        Its builds, settings and tokens move with it; its address becomes /{target}/{project}, and links to the old one stop working.
      </p>
      <form class="token-form" onSubmit={transfer}>
        <label class="field">
          <span>To the account</span>
          <select value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
            {targets.map((slug) => (
              <option key={slug} value={slug}>{slug}</option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Type {project} to confirm</span>
          <input type="text" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="button button-reject" disabled={typed !== project || !target}>Transfer {project}</button>
      </form>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
