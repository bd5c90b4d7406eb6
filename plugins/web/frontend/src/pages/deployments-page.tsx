// A project's deployments (the deployments plugin), newest first: status, environment, branch,
// commit, age and links that open the site, the branch's latest and the production site.
import { api, type Deployment, type Session } from "../api";
import { Message } from "../components/message";
import { FilterBar, SelectFilter } from "../components/filter-bar";
import { ListTable } from "../components/list-table";
import { Pagination } from "../components/pagination";
import { ProjectFrame } from "../components/project-tabs";
import { relativeTime, shortSha } from "../format";
import { useListPage } from "../hooks/use-list-page";
import { navigateWithQuery, paths } from "../router";

const statusLabels: Record<Deployment["status"], string> = { pending: "Uploading", ready: "Ready", error: "Error" };

interface Props {
  session: Session;
  account: string;
  project: string;
  query: URLSearchParams;
}

function SiteLinks({ deployment }: { deployment: Deployment }) {
  if (deployment.status !== "ready") return <span class="muted">—</span>;
  return (
    <span class="site-links">
      <a href={deployment.url} target="_blank" rel="noopener noreferrer" aria-label={`Open deployment ${deployment.id}`}>
        Open
      </a>
      {deployment.aliases.map((alias) => (
        <a
          key={alias.name}
          class={`alias alias-${alias.type}`}
          href={alias.url}
          target="_blank"
          rel="noopener noreferrer"
          title={alias.name}
        >
          {alias.type === "production" ? "production site" : "latest of branch"}
        </a>
      ))}
    </span>
  );
}

export function DeploymentsPage({ session, account, project, query }: Props) {
  const enabled = session.plugins.includes("deployments");
  const branch = query.get("branch") ?? "";
  const environment = query.get("environment") ?? "";
  const { page, result, error, pages } = useListPage(
    (params) => api.deployments(account, project, params),
    query,
    { branch, environment },
    enabled,
  );

  if (!enabled) return <Message title="Deployments are not enabled" text="This Loupe server does not run the deployments plugin." />;

  const go = (changes: Record<string, string | null>) => navigateWithQuery(paths.deployments(account, project), query, changes);
  const filtered = Boolean(branch || environment);

  return (
    <ProjectFrame
      session={session}
      account={account}
      project={project}
      section="deployments"
      error={error}
      head={
        <FilterBar branch={branch} onBranch={(value) => go({ branch: value, page: null })}>
          <SelectFilter
            label="Environment"
            name="environment"
            value={environment}
            any="any environment"
            options={[
              ["production", "Production"],
              ["preview", "Preview"],
            ]}
            onChange={(value) => go({ environment: value, page: null })}
          />
        </FilterBar>
      }
    >
      <ListTable columns={["Status", "Environment", "Branch", "Commit", "Created", "Site"]} busy={!result && !error} extraClass="deployments-table">
        {result?.results.map((deployment) => (
          <tr key={deployment.id}>
            <td>
              <span class={`badge badge-deployment-${deployment.status}`}>{statusLabels[deployment.status] ?? deployment.status}</span>
            </td>
            <td>
              <span class={`tag tag-${deployment.environment}`}>{deployment.environment === "production" ? "Production" : "Preview"}</span>
              {deployment.prNumber !== null && <span class="muted small"> PR #{deployment.prNumber}</span>}
            </td>
            <td class="mono ellipsis" title={deployment.branch}>
              {deployment.branch}
            </td>
            <td class="mono">{shortSha(deployment.commitSha)}</td>
            <td class="muted created" title={deployment.createdAt}>
              {relativeTime(deployment.createdAt)}
            </td>
            <td>
              <SiteLinks deployment={deployment} />
            </td>
          </tr>
        ))}
      </ListTable>
      {result && result.results.length === 0 && (
        <p class="empty">
          {filtered ? "No deployment matches the filters." : "No deployment yet: publish a static site with `argos deploy`."}
        </p>
      )}
      {result && <Pagination page={page} pages={pages} onPage={(next) => go({ page: String(next) })} />}
    </ProjectFrame>
  );
}
