// The changes reviewers chose to ignore on a project (what `argos change list` prints), on its
// settings page: the test each belongs to, and a way for reviewers to stop ignoring one, after
// which the change shows in builds again.
import { useEffect, useState } from "preact/hooks";
import { api, type IgnoredChange } from "../api";

export function ProjectIgnoredChangesSection({ account, project, canReview }: { account: string; project: string; canReview: boolean }) {
  const [changes, setChanges] = useState<IgnoredChange[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const load = () =>
    api.ignoredChanges(account, project).then(
      (page) => {
        setChanges(page.results);
        setTotal(page.pageInfo.total);
      },
      (e) => setError((e as Error).message),
    );
  useEffect(() => {
    load();
  }, [account, project]);

  const stop = async (change: IgnoredChange) => {
    setError(null);
    try {
      await api.ignoreChange(account, project, change.id, false);
    } catch (e) {
      setError((e as Error).message);
    }
    await load();
  };

  return (
    <section aria-label="Ignored changes">
      <h2 class="section-title">Ignored changes {changes && total > 0 && <span class="muted small">({total})</span>}</h2>
      {changes && changes.length === 0 && <p class="muted">No change is ignored. Reviewers ignore one from a build's diff.</p>}
      {changes && changes.length > 0 && (
        <ul class="plain-list" aria-label="Changes ignored">
          {changes.map((change) => (
            <li key={change.id}>
              <span>
                {change.test.name} {change.test.buildName && <span class="muted small">· {change.test.buildName}</span>}
              </span>
              {canReview && (
                <button type="button" class="link-button small" aria-label={`Stop ignoring the change of ${change.test.name}`} onClick={() => stop(change)}>
                  Stop ignoring
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {changes && total > changes.length && <p class="muted small">The first {changes.length} of {total}; `argos change list` lists all.</p>}
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
