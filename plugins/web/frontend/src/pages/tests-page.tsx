// A project's tests (`/{account}/{project}/tests`): what its screenshots test, one row per
// screenshot name and build name that still runs, flakiest first, with the metrics of the
// period; a search by name. Each row opens the test's page.
import { api, type Session, type TestSummary } from "../api";
import { SearchFilter, SelectFilter } from "../components/filter-bar";
import { ListTable } from "../components/list-table";
import { Pagination } from "../components/pagination";
import { ProjectFrame } from "../components/project-tabs";
import { useListPage } from "../hooks/use-list-page";
import { navigateWithQuery, paths } from "../router";

interface Props {
  session: Session;
  account: string;
  project: string;
  query: URLSearchParams;
}

/** The periods the Tests API counts over; the default (no parameter) is the last 7 days. */
export const metricsPeriods: [string, string][] = [
  ["LAST_24_HOURS", "Last 24 hours"],
  ["LAST_3_DAYS", "Last 3 days"],
  ["LAST_30_DAYS", "Last 30 days"],
  ["LAST_90_DAYS", "Last 90 days"],
];

export const percentOf = (value: number) => `${Math.round(value * 100)}%`;

function TestRow({ account, project, test }: { account: string; project: string; test: TestSummary }) {
  return (
    <tr>
      <td class="ellipsis" title={test.name}>
        <a href={paths.test(account, project, test.id)}>{test.name}</a>
      </td>
      <td class="muted">{test.buildName}</td>
      <td>
        {test.metrics.flakiness > 0 ? <span class="tag tag-flaky">{percentOf(test.metrics.flakiness)}</span> : <span class="muted">0%</span>}
      </td>
      <td>{percentOf(test.metrics.stability)}</td>
      <td>{test.metrics.changes}</td>
      <td>{test.metrics.total}</td>
    </tr>
  );
}

export function TestsPage({ session, account, project, query }: Props) {
  const search = query.get("search") ?? "";
  const period = query.get("metricsPeriod") ?? "";
  const { page, result, error, pages } = useListPage(
    (params) => api.tests(account, project, params),
    query,
    { search, metricsPeriod: period },
  );
  const go = (changes: Record<string, string | null>) => navigateWithQuery(paths.tests(account, project), query, changes);
  return (
    <ProjectFrame session={session} account={account} project={project} section="tests" error={error}
      head={
        <div class="filters">
          <SearchFilter label="Test" value={search} placeholder="Search tests" onChange={(value) => go({ search: value, page: null })} />
          <SelectFilter label="Period" name="period" value={period} any="Last 7 days" options={metricsPeriods}
            onChange={(value) => go({ metricsPeriod: value, page: null })} />
        </div>
      }>
      <ListTable columns={["Test", "Build name", "Flakiness", "Stability", "Changes", "Builds"]} busy={!result && !error} extraClass="tests-table">
        {result?.results.map((test) => <TestRow key={test.id} account={account} project={project} test={test} />)}
      </ListTable>
      {result && result.results.length === 0 && (
        <p class="empty">{search ? "No test matches the search." : "No test yet: tests appear with the first reference build."}</p>
      )}
      {result && <Pagination page={page} pages={pages} onPage={(next) => go({ page: String(next) })} />}
    </ProjectFrame>
  );
}
