// Everything the build page reads, and how it stays current: the build, all its diffs (the
// first page at once, the rest in parallel), reviews and comments, refreshed when the live
// endpoint's ETag changes (short polling; see the web plugin's live route).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, buildPath, commentsAt, type Build, type Comment, type Diff, type Page, type Review, type UserRef } from "../api";

const perPage = 100;
const parallelPages = 4;

type FirstPage = [Promise<Build>, Promise<Page<Diff>>];
let prefetched: { key: string; requests: FirstPage } | null = null;

/**
 * Starts reading a build page's data while the session is still being read (the cookie goes
 * with both), so the first diffs arrive one round trip sooner. Called once at start-up.
 */
export function prefetchBuild(owner: string, project: string, number: number) {
  const requests: FirstPage = [api.build(owner, project, number), api.diffs(owner, project, number, 1, perPage)];
  requests.forEach((request) => request.catch(() => undefined));
  prefetched = { key: `${owner}/${project}/${number}`, requests };
}

function firstPage(owner: string, project: string, number: number): FirstPage {
  const key = `${owner}/${project}/${number}`;
  if (prefetched?.key === key) {
    const { requests } = prefetched;
    prefetched = null;
    return requests;
  }
  return [api.build(owner, project, number), api.diffs(owner, project, number, 1, perPage)];
}

export interface BuildData {
  build: Build | null;
  diffs: Diff[];
  total: number;
  complete: boolean;
  reviews: Review[] | null;
  /** The users asked to review the build. */
  reviewers: UserRef[] | null;
  comments: Comment[] | null;
  error: ApiError | null;
  refresh: () => Promise<void>;
  refreshDiscussion: () => Promise<void>;
  setDiffs: (update: (diffs: Diff[]) => Diff[]) => void;
}

async function allDiffs(
  owner: string,
  project: string,
  number: number,
  firstRequest: Promise<Page<Diff>>,
  onFirst: (diffs: Diff[], total: number) => void,
) {
  const first = await firstRequest;
  onFirst(first.results, first.pageInfo.total);
  const pages = Math.ceil(first.pageInfo.total / perPage);
  const results: Diff[][] = [first.results];
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const page = next++;
      results[page - 1] = (await api.diffs(owner, project, number, page, perPage)).results;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallelPages, Math.max(0, pages - 1)) }, worker));
  return results.flat();
}

export function useBuildData(owner: string, project: string, number: number, withReviews: boolean): BuildData {
  const [build, setBuild] = useState<Build | null>(null);
  const [diffs, setDiffs] = useState<Diff[]>([]);
  const [total, setTotal] = useState(0);
  const [complete, setComplete] = useState(false);
  const [reviews, setReviews] = useState<Review[] | null>(null);
  const [reviewers, setReviewers] = useState<UserRef[] | null>(null);
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const loaded = useRef(false);
  // What the page shows: the live version read before it, and the build's status.
  const shownVersion = useRef<string | null>(null);
  const shownStatus = useRef<string | null>(null);

  const refreshDiscussion = useCallback(async () => {
    if (!withReviews) return;
    const [nextReviews, nextReviewers, nextComments] = await Promise.all([
      api.reviews(owner, project, number).catch(() => null),
      api.reviewers(owner, project, number).catch(() => null),
      commentsAt(buildPath(owner, project, number)).list().catch(() => null),
    ]);
    if (nextReviews) setReviews(nextReviews);
    if (nextReviewers) setReviewers(nextReviewers);
    if (nextComments) setComments(nextComments);
  }, [owner, project, number, withReviews]);

  const refresh = useCallback(async () => {
    try {
      // The live state and the reads may be answered in either order (the first reads were
      // prefetched at start-up): the version is kept only when it describes what was read, so
      // any change the reads missed is still seen by the next poll.
      const live = api.live(owner, project, number, null).catch(() => null);
      const [buildRequest, diffsRequest] = firstPage(owner, project, number);
      buildRequest.then(setBuild, () => undefined);
      shownStatus.current = (await buildRequest).status;
      const everything = await allDiffs(owner, project, number, diffsRequest, (first, count) => {
        setTotal(count);
        if (!loaded.current) {
          setDiffs(first);
          performance.mark("loupe:first-page");
        }
      });
      setDiffs(everything);
      setTotal(everything.length);
      setComplete(true);
      const state = await live;
      const pending = everything.filter((diff) => diff.status === "pending").length;
      shownVersion.current =
        state && state.status === shownStatus.current && state.diffs.total === everything.length && state.diffs.pending === pending
          ? state.version
          : null;
      if (!loaded.current) {
        loaded.current = true;
        requestAnimationFrame(() => performance.mark("loupe:list-ready"));
      }
    } catch (e) {
      setError(e as ApiError);
    }
  }, [owner, project, number]);

  useEffect(() => {
    refresh();
    refreshDiscussion();
  }, [refresh, refreshDiscussion]);

  // Live updates: a cheap conditional poll; the API is read again only when something changed.
  useEffect(() => {
    let stopped = false;
    let useLive = true;
    let busy = true;
    let timer = 0;
    const processing = (status: string) => status === "pending" || status === "progress";
    const tick = async () => {
      if (stopped) return;
      if (document.visibilityState === "visible") {
        try {
          if (useLive) {
            const state = await api.live(owner, project, number, shownVersion.current);
            if (state) {
              busy = processing(state.status) || state.diffs.pending > 0;
              if (state.version !== shownVersion.current) await refresh();
            }
          } else {
            // Without the live route: the build's status alone says when to read again.
            const latest = await api.build(owner, project, number);
            busy = processing(latest.status);
            if (latest.status !== shownStatus.current) await refresh();
          }
          await refreshDiscussion();
        } catch (e) {
          // Without the builds service the live route answers 503: read the build instead.
          if (e instanceof ApiError && (e.status === 503 || e.status === 404)) useLive = false;
        }
      }
      if (!stopped) timer = window.setTimeout(tick, busy ? 2000 : 8000);
    };
    timer = window.setTimeout(tick, 2000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [owner, project, number, refresh, refreshDiscussion]);

  return { build, diffs, total, complete, reviews, reviewers, comments, error, refresh, refreshDiscussion, setDiffs };
}
