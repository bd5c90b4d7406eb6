import { useMemo } from "preact/hooks";
import { thumbnailUrl, type Diff } from "../api";
import { VirtualList } from "../components/virtual-list";
import { percent } from "../format";
import { rowHeight, type ListRow } from "./diff-groups";

interface Props {
  owner: string;
  project: string;
  number: number;
  rows: ListRow[];
  selectedId: string | null;
  decisions: Record<string, "APPROVE" | "REQUEST_CHANGES">;
  loading: boolean;
  onSelect: (diff: Diff) => void;
  onToggleGroup: (status: string) => void;
}

function flakinessLabel(diff: Diff) {
  const metrics = diff.test?.metrics;
  if (!metrics || metrics.total === 0) return null;
  return metrics.flakiness >= 0.2 ? `flaky ${Math.round(metrics.flakiness * 100)}%` : null;
}

/** Thumbnails already loaded: shown at once even while the list moves fast (they are cached). */
const shownThumbnails = new Set<string>();

export function DiffList({ owner, project, number, rows, selectedId, decisions, loading, onSelect, onToggleGroup }: Props) {
  const focusIndex = useMemo(
    () => rows.findIndex((row) => row.kind === "diff" && row.diff.id === selectedId),
    [rows, selectedId],
  );
  return (
    <div class="diff-list" aria-busy={loading}>
      <VirtualList
        items={rows}
        height={rowHeight}
        itemKey={(row) => (row.kind === "group" ? `g-${row.status}` : `d-${row.diff.id}`)}
        focusIndex={focusIndex}
        label="Screenshots"
        render={(row, _index, moving) => {
          if (row.kind === "group")
            return (
              <button
                type="button"
                class={`group-header group-${row.status}`}
                aria-expanded={!row.collapsed}
                onClick={() => onToggleGroup(row.status)}
              >
                <span class="chevron" aria-hidden="true">{row.collapsed ? "▸" : "▾"}</span>
                {row.title}
                <span class="count">{row.count}</span>
              </button>
            );
          const { diff } = row;
          const side = diff.head ? "head" : "base";
          const decision = decisions[diff.id];
          const flaky = flakinessLabel(diff);
          const thumb = thumbnailUrl(owner, project, number, diff.id, side);
          return (
            <button
              type="button"
              class={`diff-row${diff.id === selectedId ? " selected" : ""}`}
              aria-current={diff.id === selectedId ? "true" : undefined}
              data-diff-id={diff.id}
              onClick={() => onSelect(diff)}
            >
              <span class={`thumb status-edge-${diff.status}`}>
                {(!moving || shownThumbnails.has(thumb)) && (
                  <img src={thumb} alt="" loading="lazy" decoding="async"
                    onLoad={() => shownThumbnails.add(thumb)}
                    onError={(e) => ((e.target as HTMLImageElement).style.visibility = "hidden")} />
                )}
              </span>
              <span class="diff-row-text">
                <span class="diff-name" title={diff.name}>{diff.name}</span>
                <span class="diff-meta">
                  {diff.score !== null && diff.score > 0 && <span class="score">{percent(diff.score)}</span>}
                  {flaky && <span class="tag tag-flaky">{flaky}</span>}
                  {diff.change?.ignored && <span class="tag">ignored</span>}
                  {row.similar > 0 && <span class="tag" title="Diffs of this build with the same change">+{row.similar} similar</span>}
                  {decision && (
                    <span class={`decision decision-${decision === "APPROVE" ? "ok" : "no"}`} title={decision === "APPROVE" ? "You approve this snapshot" : "You reject this snapshot"}>
                      {decision === "APPROVE" ? "✓" : "✕"}
                    </span>
                  )}
                </span>
              </span>
            </button>
          );
        }}
      />
    </div>
  );
}
