// Where Loupe knowingly differs from the official Argos API client (@argos-ci/api-client, the
// version the latest @argos-ci/cli depends on). A gap the comparison finds that is not listed
// here fails the test, and so does an entry that no longer matches any gap (so the list shrinks
// as Loupe catches up). Each entry is a regular expression over the gap lines printed by
// compare.mjs, with the reason.

const notImplemented = (pattern, why) => ({ pattern: new RegExp(`^${pattern}: not in Loupe's document$`), why });

export const allowedGaps = [
  // Operations of the Argos cloud Loupe does not implement (yet): the resolver of a separate
  // deployments edge.
  notImplemented("GET /deployments/resolve/\\{domain\\}", "Loupe serves the sites itself and needs no resolver for a separate edge"),

  {
    pattern: /^POST \/projects\/\{owner\}\/\{project\}\/changes\/\{changeId\}\/(ignore|unignore) query parameter metricsPeriod: Loupe does not declare it$/,
    why: "the answer's occurrences are always counted over the last 7 days",
  },
];

/** Splits the gaps into allowed ones and failures, and lists the entries no gap matched. */
export function judgeGaps(gaps) {
  const used = new Set();
  const failures = [];
  const allowed = [];
  for (const gap of gaps) {
    const entry = allowedGaps.find((candidate) => candidate.pattern.test(gap));
    if (entry) {
      used.add(entry);
      allowed.push(`${gap}  [${entry.why}]`);
    } else {
      failures.push(gap);
    }
  }
  const stale = allowedGaps.filter((entry) => !used.has(entry)).map((entry) => `${entry.pattern}  [${entry.why}]`);
  return { failures, allowed, stale };
}
