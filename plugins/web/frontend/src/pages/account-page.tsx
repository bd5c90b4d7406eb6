import { useEffect, useState } from "preact/hooks";
import { api, type Project } from "../api";
import { paths } from "../router";

/** An account's projects; on the home page (`heading`), an account without any is left out. */
export function AccountProjects({ account, heading = false }: { account: string; heading?: boolean }) {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.accountProjects(account).then((page) => setProjects(page.results), (e) => setError(e.message));
  }, [account]);
  if (heading && projects && projects.length === 0) return null;
  return (
    <section class="account-section" aria-label={`Projects of ${account}`}>
      {heading && (
        <h2 class="section-title">
          <a href={paths.account(account)}>{account}</a>
        </h2>
      )}
      {error && <p class="form-error">{error}</p>}
      {projects && projects.length === 0 && <p class="muted">No project yet.</p>}
      {projects && projects.length > 0 && (
        <ul class="project-list">
          {projects.map((project) => (
            <li key={project.id}>
              <a class="project-card" href={paths.project(account, project.name)}>
                <span class="project-name">{project.name}</span>
                <span class="muted small">base branch {project.defaultBaseBranch}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function AccountPage({ account }: { account: string }) {
  return (
    <div class="page page-narrow">
      <h1 class="page-title">{account}</h1>
      <AccountProjects account={account} />
    </div>
  );
}
