// The repository a project is linked to, on its settings page: Loupe posts commit statuses and
// pull request comments there, and its CI may upload without a token. Administrators link a
// GitHub repository (through an installation of the server's GitHub App) or a GitLab project;
// the server asks the provider first and refuses what its credentials cannot reach.
import { useEffect, useState } from "preact/hooks";
import { api, type RepositoryLink } from "../api";
import { useAction } from "../hooks/use-action";

export function ProjectRepositorySection({ account, project, admin }: { account: string; project: string; admin: boolean }) {
  const [link, setLink] = useState<RepositoryLink | null | undefined>(undefined);
  const [provider, setProvider] = useState<"github" | "gitlab">("github");
  const [repository, setRepository] = useState("");
  const [installation, setInstallation] = useState("");
  const load = () => api.repositoryLink(account, project).then(setLink, () => setLink(null));
  const { error, status, busy, run } = useAction(() => load());
  useEffect(() => {
    load();
  }, [account, project]);

  const save = (event: Event) => {
    event.preventDefault();
    run(
      () =>
        api.linkRepository(account, project, {
          provider,
          repository: repository.trim(),
          ...(provider === "github" ? { installationId: installation.trim() } : {}),
        }),
      "Linked",
    );
  };

  return (
    <section aria-label="Repository">
      <h2 class="section-title">Repository</h2>
      {link === null && <p class="muted">Not linked: Loupe posts nothing to a git provider for this project.</p>}
      {link && (
        <p>
          {link.provider === "github" ? "GitHub" : "GitLab"} <strong class="mono">{link.repository}</strong>
          {link.installationId && <span class="muted small"> · App installation {link.installationId}</span>}
          {admin && (
            <button type="button" class="link-button small" onClick={() => run(() => api.unlinkRepository(account, project), "Unlinked")}>
              Unlink
            </button>
          )}
        </p>
      )}
      {admin && (
        <form class="token-form" onSubmit={save}>
          <label class="field">
            <span>Provider</span>
            <select value={provider} onChange={(e) => setProvider((e.target as HTMLSelectElement).value as "github" | "gitlab")}>
              <option value="github">GitHub</option>
              <option value="gitlab">GitLab</option>
            </select>
          </label>
          <label class="field">
            <span>{provider === "github" ? "Repository (owner/name)" : "Project path (group/name)"}</span>
            <input type="text" value={repository} required onInput={(e) => setRepository((e.target as HTMLInputElement).value)} />
          </label>
          {provider === "github" && (
            <label class="field">
              <span>App installation</span>
              <input type="text" inputMode="numeric" value={installation} required onInput={(e) => setInstallation((e.target as HTMLInputElement).value)} />
            </label>
          )}
          <button type="submit" class="button" disabled={busy || !repository.trim()}>{link ? "Link instead" : "Link"}</button>
        </form>
      )}
      <p class="muted small" role="status" aria-live="polite">{status ?? ""}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
