// The build page: the diffs grouped for review on the left, the viewer in the middle, comments
// and reviews on the right; the build's decision in its header.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, buildPath, commentsAt, type Diff, type Review, type Session, type TestMask } from "../api";
import { splitCompanions } from "../build/companions";
import { buildRows, initiallyCollapsed } from "../build/diff-groups";
import { choiceFromQuery, facetCounts, facets, matchesChoice, type FacetChoice } from "../build/diff-facets";
import { DiffFilters } from "../build/diff-filters";
import { DiffList } from "../build/diff-list";
import { DiffViewer, isTyping, modes, type Mode, type Pin } from "../build/diff-viewer";
import { CommentsPanel, threadsOf } from "../build/comments-panel";
import { commentActions } from "../components/comment-threads";
import { ReviewsPanel } from "../build/reviews-panel";
import { useBuildData } from "../build/use-build-data";
import { Message } from "../components/message";
import { ShortcutsDialog } from "../components/shortcuts-dialog";
import { StatusBadge } from "../components/status-badge";
import { baselineWhy, shortSha, statsSummary } from "../format";
import { navigate, paths, setQuery } from "../router";

type Decision = "APPROVE" | "REQUEST_CHANGES";

interface Props {
  session: Session;
  account: string;
  project: string;
  number: number;
  query: URLSearchParams;
}

function useDecisions(buildId: string | undefined) {
  const key = buildId ? `loupe:decisions:${buildId}` : null;
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  useEffect(() => {
    if (key) setDecisions(JSON.parse(sessionStorage.getItem(key) ?? "{}"));
  }, [key]);
  const update = (next: Record<string, Decision>) => {
    setDecisions(next);
    if (key) sessionStorage.setItem(key, JSON.stringify(next));
  };
  return [decisions, update] as const;
}

export function BuildPage({ session, account, project, number, query }: Props) {
  const withReviews = session.plugins.includes("reviews");
  const data = useBuildData(account, project, number, withReviews);
  const { build, diffs } = data;
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  const [filter, setFilter] = useState("");
  const [selectedId, setSelectedId] = useState<string | null>(query.get("diff"));
  const [mode, setMode] = useState<Mode>((modes.find((m) => m.id === query.get("mode"))?.id ?? "side") as Mode);
  const [showMask, setShowMask] = useState(true);
  const [commentMode, setCommentMode] = useState(false);
  const [activeThread, setActiveThread] = useState<string | null>(null);
  const [panel, setPanel] = useState<"comments" | "reviews">("comments");
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error?: boolean; undo?: () => void } | null>(null);
  const [decisions, setDecisions] = useDecisions(build?.id);
  // Until the answer comes the buttons show; a viewer then loses them (the server refuses anyway).
  const [permissions, setPermissions] = useState<string[] | null>(null);
  useEffect(() => {
    api.projectPermissions(account, project).then(setPermissions, () => setPermissions(null));
  }, [account, project]);
  const canReview = permissions?.includes("review") ?? true;
  const [nextBuild, setNextBuild] = useState<{ href: string; label: string } | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);

  const [choice, setChoice] = useState<FacetChoice>(() => choiceFromQuery(query));
  // The diffs with comment threads pinned on them (the "comments" facet).
  const commented = useMemo(
    () => new Set((data.comments ?? []).filter((c) => !c.threadId && c.screenshotDiffId).map((c) => c.screenshotDiffId!)),
    [data.comments],
  );
  // A screenshot's ARIA snapshot goes with it: out of the list and its counts, beside it in the viewer.
  const companions = useMemo(() => splitCompanions(diffs), [diffs]);
  const counts = useMemo(() => facetCounts(companions.listed, commented), [companions, commented]);
  const filtered = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return companions.listed.filter((d) => (!needle || d.name.toLowerCase().includes(needle)) && matchesChoice(d, choice, commented));
  }, [companions, filter, choice, commented]);
  // A search by name shows every match, in collapsed groups too (unchanged, ignored).
  const searching = filter.trim() !== "";
  const { rows, visible } = useMemo(() => buildRows(filtered, searching ? new Set<string>() : collapsed), [filtered, collapsed, searching]);
  const selected = diffs.find((d) => d.id === selectedId) ?? visible[0] ?? null;
  const position = selected ? visible.findIndex((d) => d.id === selected.id) : -1;
  // The selection as of the last key press: keys pressed faster than the page re-renders each
  // step from the previous one, not from the selection of the last render.
  const latestSelectedId = useRef<string | null>(null);
  latestSelectedId.current = selected?.id ?? null;

  // A link to a diff of a collapsed group (unchanged, ignored) opens that group.
  useEffect(() => {
    if (selected && position < 0 && collapsed.has(selected.status)) {
      const next = new Set(collapsed);
      next.delete(selected.status);
      setCollapsed(next);
    }
  }, [selected?.id, position]);
  useEffect(
    () =>
      setQuery({
        diff: selected?.id ?? null,
        mode: mode === "side" ? null : mode,
        ...Object.fromEntries(facets.map((facet) => [facet, choice[facet] ?? null])),
      }),
    [selected?.id, mode, choice],
  );
  // The masks drawn on the selected diff's test, shown over its screenshot.
  const [masks, setMasks] = useState<TestMask[]>([]);
  const selectedTest = selected?.test?.id ?? null;
  useEffect(() => {
    setMasks([]);
    if (selectedTest) api.testMasks(account, project, selectedTest).then(setMasks, () => setMasks([]));
  }, [selectedTest]);
  useEffect(() => {
    if (notice && !notice.error) {
      const timer = setTimeout(() => setNotice(null), notice.undo ? 8000 : 3000);
      return () => clearTimeout(timer);
    }
  }, [notice]);

  const say = (text: string, error = false) => setNotice({ text, error });
  // One decision for many snapshots (a group with the same change, or every one shown), sent
  // with the review like single ones; Undo puts the decisions back as they were.
  const decideMany = (targets: Diff[], decision: "APPROVE" | "REQUEST_CHANGES") => {
    const before = decisions;
    const next = { ...decisions };
    for (const diff of targets) next[diff.id] = decision;
    setDecisions(next);
    setNotice({
      text: `${targets.length} snapshots marked ${decision === "APPROVE" ? "OK" : "as needing work"}, sent with your review`,
      undo: () => {
        setDecisions(before);
        setNotice(null);
      },
    });
  };
  const select = (diff: Diff | undefined) => {
    if (!diff) return;
    latestSelectedId.current = diff.id;
    setSelectedId(diff.id);
    setCommentMode(false);
  };
  const step = (delta: number) => {
    if (!visible.length) return;
    const at = visible.findIndex((d) => d.id === latestSelectedId.current);
    const index = at < 0 ? 0 : Math.min(visible.length - 1, Math.max(0, at + delta));
    select(visible[index]);
  };

  const review = async (event: "APPROVE" | "REJECT") => {
    if (!withReviews) return say("Reviews need the reviews plugin (plugins.enabled).", true);
    if (!canReview) return say("You can view this project's builds, not review them.", true);
    const snapshots = Object.entries(decisions)
      .filter(([id]) => diffs.some((d) => d.id === id))
      .map(([id, conclusion]) => ({ id, conclusion }));
    try {
      await api.review(account, project, number, event, snapshots);
      say(event === "APPROVE" ? "Build approved" : "Changes requested");
      await Promise.all([data.refresh(), data.refreshDiscussion()]);
      // The next build someone asked this reviewer to review, if any, one click away.
      const waiting = await api.waitingReviews().catch(() => []);
      const next = waiting.find((entry) => entry.build.id !== build?.id);
      setNextBuild(next ? { href: paths.build(next.project.account, next.project.name, next.build.number), label: `${next.project.account}/${next.project.name} #${next.build.number}` } : null);
    } catch (e) {
      say((e as Error).message, true);
    }
  };

  const dismiss = async (target: Review) => {
    try {
      await api.dismissReview(account, project, number, target.id);
      await Promise.all([data.refresh(), data.refreshDiscussion()]);
      say("Review dismissed");
    } catch (e) {
      say((e as Error).message, true);
    }
  };

  const toggleIgnore = async () => {
    const change = selected?.change;
    if (!selected || !change) return;
    try {
      const result = await api.ignoreChange(account, project, change.id, !change.ignored);
      data.setDiffs((all) => all.map((d) => (d.change?.id === result.id ? { ...d, change: result } : d)));
      say(result.ignored ? "Change ignored: it will stop asking for review" : "Change no longer ignored");
    } catch (e) {
      say((e as Error).message, true);
    }
  };

  // Ignoring a change across the build: the change of every snapshot of the selected one's
  // group (the same difference on several tests), in one action.
  const ignoreSameChange = async (ignore: boolean) => {
    const group = selected?.group;
    if (!group) return;
    const changeIds = [...new Set(diffs.filter((d) => d.group === group && d.change).map((d) => d.change!.id))];
    try {
      const results = await Promise.all(changeIds.map((id) => api.ignoreChange(account, project, id, ignore)));
      const byId = new Map(results.map((result) => [result.id, result]));
      data.setDiffs((all) => all.map((d) => (d.change && byId.has(d.change.id) ? { ...d, change: byId.get(d.change.id)! } : d)));
      say(ignore ? `Change ignored on ${changeIds.length} tests: they will stop asking for review` : `Change no longer ignored on ${changeIds.length} tests`);
    } catch (e) {
      say((e as Error).message, true);
    }
  };

  const comments = commentsAt(buildPath(account, project, number));
  const actions = commentActions(comments, data.refreshDiscussion);

  const threads = useMemo(() => threadsOf(data.comments ?? []), [data.comments]);
  const pins: Pin[] = useMemo(
    () =>
      threads
        .filter((t) => selected && t.root.screenshotDiffId === selected.id && t.root.anchor?.type === "point")
        .map((t) => ({ threadId: t.root.id, label: t.label, x: t.root.anchor!.x ?? 0, y: t.root.anchor!.y ?? 0, resolved: !!t.root.resolvedAt })),
    [threads, selected?.id],
  );
  const diffNames = useMemo(() => new Map(diffs.map((d) => [d.id, d.name])), [diffs]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey || help) return;
      const mode = modes.find((m) => m.key === event.key);
      if (event.key === "j" || event.key === "ArrowRight") step(1);
      else if (event.key === "k" || event.key === "ArrowLeft") step(-1);
      else if (mode) setMode(mode.id);
      else if (event.key === "a") review("APPROVE");
      else if (event.key === "r") review("REJECT");
      else if (event.key === "?") setHelp(true);
      else if (event.key === "/") searchBox.current?.focus();
      else if (event.key === "n" && nextBuild) navigate(nextBuild.href);
      else if (event.key === "Escape") setCommentMode(false);
      else return;
      event.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  if (data.error && !build) {
    const status = data.error.status;
    return <Message title={status === 404 ? "Build not found" : "Cannot open this build"} text={data.error.message} />;
  }

  const unresolved = threads.filter((t) => !t.root.resolvedAt).length;
  return (
    <div class="build-page">
      <div class="build-header">
        <div class="build-summary">
          <h1 class="build-title">Build #{number}</h1>
          {build && <StatusBadge status={build.status} />}
          {build && (
            <span class="build-facts">
              <span class="mono" title="Branch">{build.head.branch}</span>
              <span class="mono muted" title={build.head.sha}>{shortSha(build.head.sha)}</span>
              {build.baselineBuild?.number ? (
                <span class="muted" title={baselineWhy(build.baselineBuild)}>
                  compared with <a href={paths.build(account, project, build.baselineBuild.number)}>#{build.baselineBuild.number}</a>
                  {build.base && <span class="mono"> {build.base.branch}</span>}
                </span>
              ) : build.baselineBuild ? (
                <span class="muted">no baseline</span>
              ) : null}
              {build.stats && <span class="muted">{statsSummary(build.stats) || "no changes"}</span>}
            </span>
          )}
        </div>
        <div class="build-actions">
          <span class="muted small" aria-live="polite">
            {data.complete ? `${data.total} screenshot${data.total === 1 ? "" : "s"}` : `loading ${diffs.length} of ${data.total || "…"}`}
          </span>
          {canReview ? (
            <>
              <button type="button" class="button button-reject" onClick={() => review("REJECT")} disabled={!withReviews} title="Request changes (r)">
                Request changes
              </button>
              <button type="button" class="button button-primary" onClick={() => review("APPROVE")} disabled={!withReviews} title="Approve (a)">
                Approve
              </button>
            </>
          ) : (
            <span class="badge" title="Reviewing needs the reviewer level on this project">View only</span>
          )}
          {nextBuild && (
            <a class="button" href={nextBuild.href} title="The next build waiting for your review (n)">
              Next: {nextBuild.label} →
            </a>
          )}
          <button type="button" class="button button-quiet" aria-label="Keyboard shortcuts" onClick={() => setHelp(true)}>?</button>
        </div>
      </div>
      <div class="build-body">
        <aside class="sidebar" aria-label="Screenshots of the build">
          <input ref={searchBox} class="sidebar-filter" type="search" placeholder="Filter screenshots" aria-label="Filter screenshots by name"
            value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
          <DiffFilters counts={counts} choice={choice} onChange={setChoice} shown={filtered.length} total={diffs.length}
            onDecideShown={canReview ? (decision) => decideMany(filtered, decision) : null} />
          <DiffList owner={account} project={project} number={number} rows={rows} selectedId={selected?.id ?? null}
            decisions={decisions} loading={!data.complete} onSelect={select}
            onToggleGroup={(status) => {
              const next = new Set(collapsed);
              if (next.has(status)) next.delete(status);
              else next.add(status);
              setCollapsed(next);
            }} />
          <div class="list-state" data-list-state={data.complete ? "ready" : "loading"} hidden />
        </aside>
        {selected ? (
          <DiffViewer
            diff={selected}
            companions={companions.byParent.get(selected.id) ?? []}
            traceViewerUrl={session.traceViewerUrl}
            position={`${position + 1} of ${visible.length}`}
            mode={mode}
            onMode={setMode}
            showMask={showMask}
            onToggleMask={() => setShowMask(!showMask)}
            commentMode={commentMode}
            onToggleCommentMode={() => setCommentMode(!commentMode)}
            canComment={withReviews}
            pins={pins}
            activeThread={activeThread}
            onOpenThread={(id) => {
              setActiveThread(id);
              setPanel("comments");
            }}
            onPlacePin={async (x, y, text) => {
              const created = await comments.create({
                body: text,
                screenshotDiffId: selected.id,
                anchor: { type: "point", x, y },
              });
              setActiveThread(created.id);
              setCommentMode(false);
              setPanel("comments");
              await data.refreshDiscussion();
            }}
            decision={decisions[selected.id]}
            onDecide={canReview ? (decision) => {
              const next = { ...decisions };
              if (decision) next[selected.id] = decision;
              else delete next[selected.id];
              setDecisions(next);
            } : null}
            onToggleIgnore={selected.change && canReview ? toggleIgnore : null}
            testHref={selected.test ? paths.test(account, project, selected.test.id) : null}
            sameChange={selected.group ? diffs.filter((d) => d.group === selected.group).length : 1}
            onIgnoreSameChange={canReview && selected.group && selected.change ? ignoreSameChange : null}
            onDecideSameChange={canReview && selected.group
              ? (decision) => decideMany(diffs.filter((d) => d.group === selected.group), decision) : null}
            masks={masks}
            branch={build?.head.branch ?? ""}
            onCreateMask={selected.test && canReview ? async (rect, note, branch) => {
              await api.createTestMask(account, project, selected.test!.id, { ...rect, note, branch });
              setMasks(await api.testMasks(account, project, selected.test!.id));
              say(branch ? `Masked on ${branch}: its next builds ignore this area` : "Masked: the next builds ignore this area");
            } : null}
          />
        ) : (
          <div class="viewer viewer-empty">{data.complete ? "This build has no screenshot." : "Loading screenshots…"}</div>
        )}
        {withReviews && (
          <aside class="side-panel" aria-label="Discussion">
            <div class="tabs" role="tablist">
              <button type="button" role="tab" aria-selected={panel === "comments"} onClick={() => setPanel("comments")}>
                Comments{unresolved ? ` (${unresolved})` : ""}
              </button>
              <button type="button" role="tab" aria-selected={panel === "reviews"} onClick={() => setPanel("reviews")}>
                Reviews{data.reviews?.length ? ` (${data.reviews.length})` : ""}
              </button>
            </div>
            <div class="side-panel-body" role="tabpanel">
              {panel === "comments" ? (
                <CommentsPanel threads={threads} diffId={selected?.id ?? null} diffNames={diffNames} me={session.user!}
                  activeThread={activeThread} actions={actions}
                  onOpenThread={(id, diffId) => {
                    setActiveThread(id);
                    if (diffId) select(diffs.find((d) => d.id === diffId));
                  }} />
              ) : (
                <ReviewsPanel reviews={data.reviews ?? []} reviewers={data.reviewers ?? []} onDismiss={dismiss} />
              )}
            </div>
          </aside>
        )}
      </div>
      {notice && (
        <div class={`notice${notice.error ? " notice-error" : ""}`} role={notice.error ? "alert" : "status"}>
          {notice.text}
          {notice.undo && <button type="button" class="link-button" onClick={notice.undo}>Undo</button>}
          {notice.error && <button type="button" class="link-button" onClick={() => setNotice(null)}>Close</button>}
        </div>
      )}
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
    </div>
  );
}
