// A project's activity (the analytics plugin): builds and screenshots over time, and the tests
// whose screenshots changed most often without a code change (flakiness) over 30 days.
import { useEffect, useState } from "preact/hooks";
import { api, type FlakyTests, type Session } from "../api";
import { ActivityCharts, RangePicker, rangeOf } from "../components/activity";
import { ListTable } from "../components/list-table";
import { Message } from "../components/message";
import { ProjectFrame } from "../components/project-tabs";
import { navigateWithQuery, paths } from "../router";

interface Props {
  session: Session;
  account: string;
  project: string;
  query: URLSearchParams;
}

const percent = (value: number) => `${Math.round(value * 100)}%`;

function FlakyTestsTable({ account, project }: { account: string; project: string }) {
  const [flaky, setFlaky] = useState<FlakyTests | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.flakyTests(account, project, "LAST_30_DAYS").then(setFlaky, (e) => setError(e.message));
  }, [account, project]);
  return (
    <section aria-labelledby="flaky-title">
      <h2 id="flaky-title" class="section-title">
        Flaky tests <span class="muted small">last 30 days</span>
      </h2>
      {error && <p class="form-error">{error}</p>}
      {flaky && flaky.tests.length === 0 && <p class="muted">No test changed without reason in the last 30 days.</p>}
      {flaky && flaky.tests.length > 0 && (
        <ListTable columns={["Test", "Flakiness", "Stability", "Changes", "Builds"]}>
          {flaky.tests.map((test) => (
            <tr key={test.id}>
              <td class="ellipsis" title={test.name}>
                {test.name}
                {test.buildName !== "default" && <span class="muted small"> {test.buildName}</span>}
              </td>
              <td>
                <span class="tag tag-flaky">{percent(test.metrics.flakiness)}</span>
              </td>
              <td>{percent(test.metrics.stability)}</td>
              <td>{test.metrics.changes}</td>
              <td>{test.metrics.total}</td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}

export function ActivityPage({ session, account, project, query }: Props) {
  if (!session.plugins.includes("analytics"))
    return <Message title="Activity is not enabled" text="This Loupe server does not run the analytics plugin." />;
  const range = rangeOf(query.get("range"));
  return (
    <ProjectFrame
      session={session}
      account={account}
      project={project}
      section="activity"
      head={
        <RangePicker range={range} onRange={(id) => navigateWithQuery(paths.activity(account, project), query, { range: id === "30d" ? null : id })} />
      }
    >
      <ActivityCharts account={account} projectName={project} range={range} />
      <FlakyTestsTable account={account} project={project} />
    </ProjectFrame>
  );
}
