// The diffs of a build in Argos's review order, grouped by status: what needs a decision first,
// the unchanged (and ignored) ones collapsed at the end.
import type { Diff } from "../api";

export interface GroupSpec {
  status: string;
  title: string;
  collapsed: boolean;
}

export const groupSpecs: GroupSpec[] = [
  { status: "failure", title: "Failures", collapsed: false },
  { status: "changed", title: "Changed", collapsed: false },
  { status: "added", title: "Added", collapsed: false },
  { status: "removed", title: "Removed", collapsed: false },
  { status: "pending", title: "Processing", collapsed: false },
  { status: "unchanged", title: "Unchanged", collapsed: true },
  { status: "retryFailure", title: "Retry failures", collapsed: true },
  { status: "ignored", title: "Ignored", collapsed: true },
];

export type ListRow =
  | { kind: "group"; status: string; title: string; count: number; collapsed: boolean }
  | { kind: "diff"; diff: Diff; index: number; similar: number };

export const rowHeight = (row: ListRow) => (row.kind === "group" ? 30 : 58);

/** Rows of the list and, in the same order, the diffs that keyboard navigation visits. */
export function buildRows(diffs: Diff[], collapsed: Set<string>): { rows: ListRow[]; visible: Diff[] } {
  const byStatus = new Map<string, Diff[]>();
  for (const diff of diffs) {
    const status = groupSpecs.some((g) => g.status === diff.status) ? diff.status : "pending";
    if (!byStatus.has(status)) byStatus.set(status, []);
    byStatus.get(status)!.push(diff);
  }
  const rows: ListRow[] = [];
  const visible: Diff[] = [];
  for (const spec of groupSpecs) {
    const members = byStatus.get(spec.status);
    if (!members?.length) continue;
    const isCollapsed = collapsed.has(spec.status);
    rows.push({ kind: "group", status: spec.status, title: spec.title, count: members.length, collapsed: isCollapsed });
    if (isCollapsed) continue;
    const groupSizes = new Map<string, number>();
    for (const diff of members) if (diff.group) groupSizes.set(diff.group, (groupSizes.get(diff.group) ?? 0) + 1);
    for (const diff of members) {
      rows.push({ kind: "diff", diff, index: visible.length, similar: diff.group ? groupSizes.get(diff.group)! - 1 : 0 });
      visible.push(diff);
    }
  }
  return { rows, visible };
}

export function initiallyCollapsed() {
  return new Set(groupSpecs.filter((g) => g.collapsed).map((g) => g.status));
}
