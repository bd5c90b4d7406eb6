// The builds waiting for the signed-in person's review (asked by someone, not yet approved or
// rejected by them), the oldest request first, each a link to its build page.
import { useEffect, useState } from "preact/hooks";
import { api, type WaitingBuild } from "../api";
import { relativeTime } from "../format";
import { paths } from "../router";
import { StatusBadge } from "./status-badge";

export function WaitingReviews() {
  const [waiting, setWaiting] = useState<WaitingBuild[] | null>(null);
  useEffect(() => {
    api.waitingReviews().then(setWaiting, () => setWaiting([]));
  }, []);
  if (!waiting || waiting.length === 0) return null;
  return (
    <section aria-label="Waiting for your review">
      <h2 class="section-title">Waiting for your review</h2>
      <ul class="plain-list waiting-list">
        {waiting.map(({ project, build, requestedAt, requestedBy }) => (
          <li key={build.id}>
            <a href={paths.build(project.account, project.name, build.number)}>
              {project.account}/{project.name} #{build.number}
            </a>
            <span class="muted small">{build.head.branch}</span>
            <StatusBadge status={build.status} />
            <span class="muted small">
              asked {requestedBy ? `by ${requestedBy.name ?? requestedBy.slug} ` : ""}
              {relativeTime(requestedAt)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
