// Deleting a project, for the owners of its account: its builds, screenshots, reviews,
// comments, deployments and tokens go with it, and nothing brings them back, so the button
// waits for the project's name typed in full. The server refuses anyone else and says why.
import { useState } from "preact/hooks";
import { api } from "../api";
import { navigate, paths } from "../router";

export function ProjectDeleteSection({ account, project }: { account: string; project: string }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);

  const remove = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      await api.deleteProject(account, project);
      navigate(paths.account(account));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-label="Delete" class="danger-zone">
      <h2 class="section-title">Delete the project</h2>
      <p class="muted small">
        Its builds, screenshots, reviews, comments, deployments and tokens are deleted; CI uploads to it stop. This cannot be undone.
      </p>
      <form class="token-form" onSubmit={remove}>
        <label class="field">
          <span>Type {project} to confirm</span>
          <input type="text" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="button button-reject" disabled={typed !== project}>Delete {project}</button>
      </form>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
