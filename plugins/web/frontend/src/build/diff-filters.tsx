// The build's filters above its diff list: one menu per facet that tells diffs apart (two
// values or more, or one chosen), each value with its count over the build, the most frequent
// first; a Clear link when any is chosen, and for reviewers one decision for every screenshot
// shown.
import type { Facet, FacetChoice } from "./diff-facets";
import { facetNames, facets } from "./diff-facets";

interface Props {
  counts: Record<Facet, Map<string, number>>;
  choice: FacetChoice;
  onChange: (choice: FacetChoice) => void;
  shown: number;
  total: number;
  /** One decision for every screenshot shown; null for a viewer. */
  onDecideShown: ((decision: "APPROVE" | "REQUEST_CHANGES") => void) | null;
}

export function DiffFilters({ counts, choice, onChange, shown, total, onDecideShown }: Props) {
  const useful = facets.filter((facet) => counts[facet].size > 1 || choice[facet]);
  if (useful.length === 0) return null;
  const any = facets.some((facet) => choice[facet]);
  return (
    <div class="diff-filters" role="group" aria-label="Filter the screenshots">
      {useful.map((facet) => (
        <select key={facet} aria-label={`Filter by ${facetNames[facet]}`} value={choice[facet] ?? ""}
          class={choice[facet] ? "filter-on" : ""}
          onChange={(e) => onChange({ ...choice, [facet]: (e.target as HTMLSelectElement).value || undefined })}>
          <option value="">Any {facetNames[facet]}</option>
          {[...counts[facet]].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([value, count]) => (
            <option key={value} value={value}>{value} ({count})</option>
          ))}
        </select>
      ))}
      {any && (
        <span class="diff-filters-state small muted">
          {shown} of {total}{" "}
          <button type="button" class="link-button small" onClick={() => onChange({})}>Clear</button>
          {onDecideShown && shown > 0 && (
            <>
              {" · "}
              <button type="button" class="link-button small" onClick={() => onDecideShown("APPROVE")}>✓ OK all {shown}</button>{" "}
              <button type="button" class="link-button small" onClick={() => onDecideShown("REQUEST_CHANGES")}>✕ all {shown}</button>
            </>
          )}
        </span>
      )}
    </div>
  );
}
