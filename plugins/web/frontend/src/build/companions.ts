// ARIA snapshots taken with a screenshot (the Playwright SDK's `ariaSnapshot: true`) name that
// screenshot as their parent (`parentName`). As Argos does, they are not diffs of their own: the
// build's counts leave them out, so the list does too, and the viewer shows each beside its
// screenshot. A snapshot whose parent is not in the build stays in the list.
import type { Diff } from "../api";

export interface Companions {
  /** The diffs the list shows. */
  listed: Diff[];
  /** The snapshots shown beside each listed diff, by that diff's id. */
  byParent: Map<string, Diff[]>;
}

export function splitCompanions(diffs: Diff[]): Companions {
  const byName = new Map<string, Diff>();
  for (const diff of diffs) if (!diff.parentName && !byName.has(diff.name)) byName.set(diff.name, diff);
  const listed: Diff[] = [];
  const byParent = new Map<string, Diff[]>();
  for (const diff of diffs) {
    const parent = diff.parentName ? byName.get(diff.parentName) : undefined;
    if (parent) byParent.set(parent.id, [...(byParent.get(parent.id) ?? []), diff]);
    else listed.push(diff);
  }
  return { listed, byParent };
}
