import { useEffect, useState } from "preact/hooks";
import { api, type Project, type Session } from "../api";
import { ActivityCharts, RangePicker, rangeOf } from "../components/activity";
import { navigateWithQuery, paths } from "../router";

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

/** An account's projects, and its activity above them when the analytics plugin is enabled. */
export function AccountPage({ session, account, query }: { session: Session; account: string; query: URLSearchParams }) {
  const settings = (
    <a class="button" href={paths.teamSettings(account)}>
      Settings
    </a>
  );
  if (!session.plugins.includes("analytics"))
    return (
      <div class="page page-narrow">
        <div class="page-head">
          <h1 class="page-title">{account}</h1>
          {settings}
        </div>
        <AccountProjects account={account} />
      </div>
    );
  const range = rangeOf(query.get("range"));
  return (
    <div class="page">
      <div class="page-head">
        <h1 class="page-title">{account}</h1>
        <div class="page-head-actions">
          <RangePicker range={range} onRange={(id) => navigateWithQuery(paths.account(account), query, { range: id === "30d" ? null : id })} />
          {settings}
        </div>
      </div>
      <ActivityCharts account={account} range={range} />
      <h2 class="section-title">Projects</h2>
      <AccountProjects account={account} />
    </div>
  );
}
