// A project's builds, newest first: status, branch, commit, baseline and what changed, with
// filters by branch and status and pages of 30.
import { useEffect, useState } from "preact/hooks";
import { api, type Build, type Page } from "../api";
import { StatusBadge, statusLabel } from "../components/status-badge";
import { shortSha, statsSummary } from "../format";
import { navigate, paths } from "../router";

const perPage = 30;
const statuses = ["pending", "progress", "changes-detected", "no-changes", "accepted", "rejected", "error", "expired"];

interface Props {
  account: string;
  project: string;
  query: URLSearchParams;
}

export function ProjectPage({ account, project, query }: Props) {
  const page = Math.max(1, Number(query.get("page")) || 1);
  const branch = query.get("branch") ?? "";
  const status = query.get("status") ?? "";
  const [result, setResult] = useState<Page<Build> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [branchInput, setBranchInput] = useState(branch);

  useEffect(() => {
    setResult(null);
    const params: Record<string, string> = { page: String(page), perPage: String(perPage) };
    if (branch) params.head = branch;
    api.builds(account, project, params).then(setResult, (e) => setError(e.message));
  }, [account, project, page, branch]);

  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    const search = next.toString();
    navigate(paths.project(account, project) + (search ? `?${search}` : ""));
  };

  // The API filters by branch; the status filter applies to the page shown.
  const builds = result ? result.results.filter((build) => !status || build.status === status) : [];
  const pages = result ? Math.max(1, Math.ceil(result.pageInfo.total / perPage)) : 1;

  return (
    <div class="page">
      <div class="page-head">
        <h1 class="page-title">{project}</h1>
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            go({ branch: branchInput.trim() || null, page: null });
          }}
        >
          <label class="filter">
            <span>Branch</span>
            <input
              type="search"
              value={branchInput}
              placeholder="any branch"
              aria-label="Filter by branch"
              onInput={(e) => setBranchInput((e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="filter">
            <span>Status</span>
            <select aria-label="Filter by status" value={status} onChange={(e) => go({ status: (e.target as HTMLSelectElement).value || null })}>
              <option value="">any status</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </label>
        </form>
      </div>
      {error && <p class="form-error" role="alert">{error}</p>}
      <table class="builds-table" aria-busy={!result && !error}>
        <thead>
          <tr>
            <th scope="col">Build</th>
            <th scope="col">Status</th>
            <th scope="col">Branch</th>
            <th scope="col">Commit</th>
            <th scope="col">Baseline</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {builds.map((build) => {
            const href = paths.build(account, project, build.number);
            return (
              <tr key={build.id} class="clickable" onClick={(e) => {
                if (!(e.target as Element).closest("a")) navigate(href);
              }}>
                <td>
                  <a href={href} class="build-number">#{build.number}</a>
                </td>
                <td><StatusBadge status={build.status} /></td>
                <td class="mono ellipsis" title={build.head.branch}>{build.head.branch}</td>
                <td class="mono">{shortSha(build.head.sha)}</td>
                <td class="muted">
                  {build.baselineBuild?.number ? (
                    <a href={paths.build(account, project, build.baselineBuild.number)}>#{build.baselineBuild.number}</a>
                  ) : (
                    "—"
                  )}
                  {build.base && <span class="mono small"> {build.base.branch}</span>}
                </td>
                <td class="muted">{statsSummary(build.stats) || (build.conclusion === "no-changes" ? "none" : "")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {result && builds.length === 0 && (
        <p class="empty">{result.pageInfo.total === 0 ? "No build yet: upload screenshots with the Argos CLI." : "No build on this page matches the filters."}</p>
      )}
      {result && pages > 1 && (
        <nav class="pagination" aria-label="Pages">
          <button type="button" class="button" disabled={page <= 1} onClick={() => go({ page: String(page - 1) })}>
            Newer
          </button>
          <span class="muted">
            Page {page} of {pages}
          </span>
          <button type="button" class="button" disabled={page >= pages} onClick={() => go({ page: String(page + 1) })}>
            Older
          </button>
        </nav>
      )}
    </div>
  );
}
