// Filters inside a build: each diff's values per facet (its status, and from the screenshot's
// metadata as the Argos SDKs send it: browser, viewport, colour scheme, test file, tags; and
// whether it has comment threads), their counts over the build, and whether a diff matches the
// chosen values. Pure functions: the page keeps the choice in the URL.
import type { Diff } from "../api";

export const facets = ["status", "browser", "viewport", "scheme", "file", "tag", "comments"] as const;
export type Facet = (typeof facets)[number];
export type FacetChoice = Partial<Record<Facet, string>>;

export const facetNames: Record<Facet, string> = {
  status: "status",
  browser: "browser",
  viewport: "viewport",
  scheme: "colour scheme",
  file: "test file",
  tag: "tag",
  comments: "comments",
};

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : []);

/** The diff's values per facet (a diff may carry several tags; a facet it lacks has none). */
export function facetValues(diff: Diff, commented: ReadonlySet<string>): Record<Facet, string[]> {
  const metadata = record((diff.head ?? diff.base)?.metadata);
  const browser = record(metadata?.browser);
  const viewport = record(metadata?.viewport);
  const test = record(metadata?.test);
  const location = record(test?.location);
  const size = viewport && typeof viewport.width === "number" && typeof viewport.height === "number" ? `${viewport.width}×${viewport.height}` : null;
  const one = (value: string | null) => (value ? [value] : []);
  return {
    status: [diff.status],
    browser: one(text(browser?.name)),
    viewport: one(size),
    scheme: one(text(metadata?.colorScheme)),
    file: one(text(location?.file)),
    tag: [...new Set([...strings(metadata?.tags), ...strings(test?.tags)])],
    comments: [commented.has(diff.id) ? "with comments" : "without comments"],
  };
}

/** value → how many diffs hold it, per facet, in first-seen order. */
export function facetCounts(diffs: readonly Diff[], commented: ReadonlySet<string>): Record<Facet, Map<string, number>> {
  const counts = Object.fromEntries(facets.map((facet) => [facet, new Map<string, number>()])) as Record<Facet, Map<string, number>>;
  for (const diff of diffs) {
    const values = facetValues(diff, commented);
    for (const facet of facets) for (const value of values[facet]) counts[facet].set(value, (counts[facet].get(value) ?? 0) + 1);
  }
  return counts;
}

/** Whether the diff holds every chosen value. */
export function matchesChoice(diff: Diff, choice: FacetChoice, commented: ReadonlySet<string>): boolean {
  const chosen = facets.filter((facet) => choice[facet]);
  if (chosen.length === 0) return true;
  const values = facetValues(diff, commented);
  return chosen.every((facet) => values[facet].includes(choice[facet]!));
}

/** The choice the URL holds (`?browser=chromium&tag=smoke`). */
export function choiceFromQuery(query: URLSearchParams): FacetChoice {
  const choice: FacetChoice = {};
  for (const facet of facets) {
    const value = query.get(facet);
    if (value) choice[facet] = value;
  }
  return choice;
}
