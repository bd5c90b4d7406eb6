// A project's builds, newest first: status, branch, commit, baseline and what changed (and the
// build name, when the page shows builds of several names), with a search (build name, branch,
// commit prefix: the API's `search`), filters by branch and status and pages of 30.
import { api, type Session } from "../api";
import { FilterBar, SearchFilter, SelectFilter } from "../components/filter-bar";
import { ListTable } from "../components/list-table";
import { Pagination } from "../components/pagination";
import { ProjectFrame } from "../components/project-tabs";
import { StatusBadge, statusLabel } from "../components/status-badge";
import { shortSha, statsSummary } from "../format";
import { useListPage } from "../hooks/use-list-page";
import { navigate, navigateWithQuery, paths } from "../router";

const statuses = ["pending", "progress", "changes-detected", "no-changes", "accepted", "rejected", "error", "expired"];

interface Props {
  session: Session;
  account: string;
  project: string;
  query: URLSearchParams;
}

export function ProjectPage({ session, account, project, query }: Props) {
  const branch = query.get("branch") ?? "";
  const status = query.get("status") ?? "";
  const search = query.get("search") ?? "";
  const { page, result, error, pages } = useListPage((params) => api.builds(account, project, params), query, { head: branch, search });

  const go = (changes: Record<string, string | null>) => navigateWithQuery(paths.project(account, project), query, changes);

  // The API filters by branch; the status filter applies to the page shown.
  const builds = result ? result.results.filter((build) => !status || build.status === status) : [];
  // A project that sends several builds per commit (one per browser, say) tells them by name.
  const named = new Set(builds.map((build) => build.name)).size > 1;

  return (
    <ProjectFrame
      session={session}
      account={account}
      project={project}
      section="builds"
      error={error}
      head={
        <FilterBar branch={branch} onBranch={(value) => go({ branch: value, page: null })}>
          <SearchFilter label="Search" value={search} placeholder="name, branch, commit" onChange={(value) => go({ search: value, page: null })} />
          <SelectFilter
            label="Status"
            name="status"
            value={status}
            any="any status"
            options={statuses.map((s) => [s, statusLabel(s)])}
            onChange={(value) => go({ status: value })}
          />
        </FilterBar>
      }
    >
      <ListTable
        columns={named ? ["Build", "Name", "Status", "Branch", "Commit", "Baseline", "Changes"] : ["Build", "Status", "Branch", "Commit", "Baseline", "Changes"]}
        busy={!result && !error}>
        {builds.map((build) => {
          const href = paths.build(account, project, build.number);
          return (
            <tr key={build.id} class="clickable" onClick={(e) => {
              if (!(e.target as Element).closest("a")) navigate(href);
            }}>
              <td>
                <a href={href} class="build-number">#{build.number}</a>
              </td>
              {named && <td class="ellipsis" title={build.name}>{build.name}</td>}
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
      </ListTable>
      {result && builds.length === 0 && (
        <p class="empty">{result.pageInfo.total === 0 ? "No build yet: upload screenshots with the Argos CLI." : "No build on this page matches the filters."}</p>
      )}
      {result && <Pagination page={page} pages={pages} onPage={(next) => go({ page: String(next) })} />}
    </ProjectFrame>
  );
}
