// A test's page (`/{account}/{project}/tests/{testId}`): one screenshot name of a build name,
// followed across builds. Its metrics over the period; its history (each build's screenshot,
// newest first, with the build its baseline came from; one branch or all); the distinct changes
// it keeps producing, with how often and when, and Ignore for reviewers; its masks (areas its
// next diffs ignore, with who drew or removed each and why); and the team's comment threads
// about the test itself. Following the test is the Follow button.
import { useEffect, useState } from "preact/hooks";
import {
  api,
  commentsAt,
  testPath,
  thumbnailUrl,
  type Comment,
  type Review,
  type Session,
  type TestChange,
  type TestDetails,
  type TestHistoryEntry,
  type TestMask,
} from "../api";
import { commentActions, NewComment, ThreadView, threadsOf } from "../components/comment-threads";
import { ConfirmButton } from "../components/confirm-button";
import { SearchFilter, SelectFilter } from "../components/filter-bar";
import { ProjectFrame } from "../components/project-tabs";
import { StatusBadge } from "../components/status-badge";
import { relativeTime, shortSha } from "../format";
import { navigateWithQuery, paths } from "../router";
import { metricsPeriods, percentOf } from "./tests-page";

interface Props {
  session: Session;
  account: string;
  project: string;
  testId: string;
  query: URLSearchParams;
}

function Metrics({ test }: { test: TestDetails }) {
  const figures: [string, string, string][] = [
    ["Flakiness", percentOf(test.metrics.flakiness), "How often it changes without a reason, over the period"],
    ["Stability", percentOf(test.metrics.stability), "Share of reference builds in which it did not change"],
    ["Consistency", percentOf(test.metrics.consistency), "Share of its changes that were seen more than once"],
    ["Changes", String(test.metrics.changes), "Reference builds in which it changed"],
    ["Builds", String(test.metrics.total), "Reference builds counted"],
  ];
  return (
    <dl class="usage-figures" aria-label="Metrics">
      {figures.map(([label, value, title]) => (
        <div key={label} title={title}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function HistoryStrip({ account, project, entries }: { account: string; project: string; entries: TestHistoryEntry[] }) {
  if (entries.length === 0) return <p class="muted">No build of this branch has the test.</p>;
  return (
    <ol class="test-history" aria-label="Builds">
      {entries.map(({ build, baseBuildNumber, diff }) => {
        const side = diff.head ? "head" : "base";
        return (
          <li key={diff.id} class={`history-card status-edge-${diff.status}`}>
            <a href={`${paths.build(account, project, build.number)}?diff=${encodeURIComponent(diff.id)}`}
              aria-label={`Build ${build.number}: ${diff.status}`}>
              <span class="history-thumb">
                <img src={thumbnailUrl(account, project, build.number, diff.id, side)} alt="" loading="lazy" />
              </span>
              <span class="history-meta">
                <strong>#{build.number}</strong> <StatusBadge status={diff.status} />
              </span>
              <span class="muted small ellipsis" title={`${build.branch} · ${build.commit}`}>
                {build.branch} · {shortSha(build.commit)}
              </span>
              <span class="muted small">
                {baseBuildNumber !== null ? `baseline #${baseBuildNumber}` : "no baseline"} · {relativeTime(build.createdAt)}
              </span>
            </a>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Where the newest build's baseline came from: the build (its branch and commit), and why it
 * counts as a baseline: approved by a reviewer (who, when), an approval carried forward, or a
 * reference build of the auto-approved branch.
 */
function BaselineProvenance({ session, account, project, entries }: { session: Session; account: string; project: string; entries: TestHistoryEntry[] }) {
  const newest = entries[0];
  const base = newest?.baseBuildNumber ?? null;
  const baseEntry = entries.find((entry) => entry.build.number === base) ?? null;
  const [approval, setApproval] = useState<Review | null | undefined>(undefined);
  useEffect(() => {
    setApproval(undefined);
    if (base === null || !session.plugins.includes("reviews")) return;
    api.reviews(account, project, base).then(
      (reviews) => setApproval(reviews.find((review) => review.state === "approved" && !review.dismissedAt) ?? null),
      () => setApproval(null),
    );
  }, [base]);
  if (!newest) return null;
  if (base === null) return <p class="muted small">Build #{newest.build.number} had no baseline for this test: it was new there.</p>;
  const who = (user: Review["user"]) => (user ? user.name ?? user.slug : "someone");
  let why = "";
  if (approval) why = approval.automatic ? `, approval carried forward ${relativeTime(approval.date)}` : `, approved by ${who(approval.user)} ${relativeTime(approval.date)}`;
  else if (approval === null && baseEntry) why = baseEntry.build.reviewState === "accepted" ? ", accepted" : `, a build of ${baseEntry.build.branch}`;
  return (
    <p class="small" aria-label="Baseline">
      Build #{newest.build.number} compared it with{" "}
      <a href={paths.build(account, project, base)}>build #{base}</a>
      {baseEntry && <span class="muted"> ({baseEntry.build.branch} · {shortSha(baseEntry.build.commit)})</span>}
      {why}.
    </p>
  );
}

function ChangeRow({ account, project, change, canReview, onToggle }: {
  account: string;
  project: string;
  change: TestChange;
  canReview: boolean;
  onToggle: () => void;
}) {
  const buildLink = (number: number) => <a href={paths.build(account, project, number)}>#{number}</a>;
  return (
    <li class="change-row">
      <span class="thumb">{change.diff.url && <img src={change.diff.url} alt="" loading="lazy" />}</span>
      <span class="change-text">
        <strong>Seen {change.occurrences}×</strong>
        <span class="muted small">
          first in {buildLink(change.firstSeen.buildNumber)} {relativeTime(change.firstSeen.date)}, last in{" "}
          {buildLink(change.lastSeen.buildNumber)} {relativeTime(change.lastSeen.date)}
        </span>
      </span>
      {change.ignored && <span class="tag">ignored</span>}
      {canReview && (
        <button type="button" class="button button-small" aria-pressed={change.ignored} onClick={onToggle}
          title="A recurring, accepted difference that should stop asking for review">
          {change.ignored ? "Unignore" : "Ignore"}
        </button>
      )}
    </li>
  );
}

function TestMasks({ account, project, testId, canReview }: { account: string; project: string; testId: string; canReview: boolean }) {
  const [masks, setMasks] = useState<TestMask[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => api.testMasks(account, project, testId, true).then(setMasks, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [testId]);
  const who = (user: TestMask["createdBy"]) => (user ? user.name ?? user.slug : "someone");
  const remove = async (mask: TestMask) => {
    try {
      await api.removeTestMask(account, project, testId, mask.id);
      await load();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };
  const live = masks?.filter((mask) => !mask.removedAt) ?? [];
  const removed = masks?.filter((mask) => mask.removedAt) ?? [];
  return (
    <section aria-label="Masks">
      <h2 class="section-title">Masks</h2>
      <p class="muted small">
        Areas of the screenshot the next diffs of this test ignore. Draw one on a diff with <strong>Mask</strong>; diffs already
        computed stay as they are.
      </p>
      {error && <p class="form-error" role="alert">{error}</p>}
      {masks && live.length === 0 && <p class="muted">No mask in force.</p>}
      <ul class="plain-list mask-list">
        {live.map((mask) => (
          <li key={mask.id}>
            <span>
              <strong>{mask.width}×{mask.height}</strong> at {mask.x},{mask.y} · {mask.branch ? `on ${mask.branch}` : "every branch"}
              {mask.note && <> · {mask.note}</>}
              <span class="muted small"> — {who(mask.createdBy)}, {relativeTime(mask.createdAt)}</span>
            </span>
            {canReview && (
              <ConfirmButton label="Remove" ariaLabel={`Remove the mask ${mask.id}`} confirmLabel="Remove the mask" onConfirm={() => remove(mask)} />
            )}
          </li>
        ))}
        {removed.map((mask) => (
          <li key={mask.id} class="mask-removed">
            <span>
              {mask.width}×{mask.height} at {mask.x},{mask.y}{mask.note && <> · {mask.note}</>}
              <span class="muted small"> — removed by {who(mask.removedBy)} {relativeTime(mask.removedAt)}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function TestComments({ session, place, canComment }: { session: Session; place: string; canComment: boolean }) {
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const endpoints = commentsAt(place);
  const load = () => endpoints.list().then(setComments, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [place]);
  const actions = commentActions(endpoints, load);
  const threads = threadsOf(comments ?? []);
  return (
    <section class="comments test-comments" aria-label="Comments">
      <h2 class="section-title">Comments</h2>
      {error && <p class="form-error" role="alert">{error}</p>}
      {comments && threads.length === 0 && <p class="muted">No comment on this test yet.</p>}
      {threads.map((thread) => (
        <ThreadView key={thread.root.id} thread={thread} me={session.user!} active={false} onOpen={() => undefined} actions={actions} />
      ))}
      {canComment && <NewComment placeholder="Comment on the test…" label="Comment on the test" onSubmit={actions.comment} />}
    </section>
  );
}

export function TestPage({ session, account, project, testId, query }: Props) {
  const period = query.get("metricsPeriod") ?? "";
  const branch = query.get("branch") ?? "";
  const [test, setTest] = useState<TestDetails | null>(null);
  const [changes, setChanges] = useState<TestChange[] | null>(null);
  const [history, setHistory] = useState<TestHistoryEntry[] | null>(null);
  const [followed, setFollowed] = useState<boolean | null>(null);
  const [canReview, setCanReview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const apiPeriod = period || "LAST_7_DAYS";

  const loadChanges = () => api.testChanges(account, project, testId, apiPeriod).then((page) => setChanges(page.results), () => setChanges([]));
  useEffect(() => {
    api.test(account, project, testId, apiPeriod).then(setTest, (e) => setError((e as Error).message));
    loadChanges();
  }, [testId, apiPeriod]);
  useEffect(() => {
    api.testHistory(account, project, testId, branch).then(setHistory, () => setHistory([]));
  }, [testId, branch]);
  useEffect(() => {
    api.projectPermissions(account, project).then((held) => setCanReview(held.includes("review")), () => setCanReview(false));
    if (session.plugins.includes("reviews")) api.testFollowed(account, project, testId).then(setFollowed, () => setFollowed(null));
  }, [testId]);

  const go = (changes: Record<string, string | null>) => navigateWithQuery(paths.test(account, project, testId), query, changes);
  const toggleIgnore = async (change: TestChange) => {
    try {
      await api.ignoreChange(account, project, change.id, !change.ignored);
      await loadChanges();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const follow = async () => {
    try {
      setFollowed(await api.followTest(account, project, testId, !followed));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <ProjectFrame session={session} account={account} project={project} section="tests" error={error}
      head={
        <div class="filters">
          <SelectFilter label="Period" name="period" value={period} any="Last 7 days" options={metricsPeriods}
            onChange={(value) => go({ metricsPeriod: value })} />
        </div>
      }>
      {test && (
        <div class="test-page">
          <div class="test-head">
            <div>
              <h2 class="test-title">{test.name}</h2>
              <p class="muted small">
                {test.buildName} · <span class={`tag${test.status === "ongoing" ? "" : " tag-flaky"}`}>{test.status === "ongoing" ? "running" : "no longer runs"}</span>
                {" · "}first seen {relativeTime(test.createdAt)} · <code>{test.id}</code>
              </p>
            </div>
            {followed !== null && (
              <button type="button" class="button button-small" aria-pressed={followed} onClick={follow}
                title="Get the mail of new comments on this test">
                {followed ? "Following" : "Follow"}
              </button>
            )}
          </div>
          <Metrics test={test} />
          <section aria-label="History">
            <div class="section-head">
              <h2 class="section-title">History</h2>
              <SearchFilter label="Branch" value={branch} placeholder="all branches" onChange={(value) => go({ branch: value })} />
            </div>
            {history && <BaselineProvenance session={session} account={account} project={project} entries={history} />}
            {history && <HistoryStrip account={account} project={project} entries={history} />}
          </section>
          <section aria-label="Changes">
            <h2 class="section-title">Changes</h2>
            {changes && changes.length === 0 && <p class="muted">No change of this test over the period.</p>}
            {changes && changes.length > 0 && (
              <ul class="plain-list change-list">
                {changes.map((change) => (
                  <ChangeRow key={change.id} account={account} project={project} change={change} canReview={canReview}
                    onToggle={() => toggleIgnore(change)} />
                ))}
              </ul>
            )}
          </section>
          <TestMasks account={account} project={project} testId={testId} canReview={canReview} />
          {session.plugins.includes("reviews") && (
            <TestComments session={session} place={testPath(account, project, testId)} canComment={canReview} />
          )}
        </div>
      )}
    </ProjectFrame>
  );
}
