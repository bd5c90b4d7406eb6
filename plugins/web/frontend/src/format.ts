export function shortSha(sha: string | null | undefined) {
  return sha ? sha.slice(0, 7) : "—";
}

/** A score (fraction of differing pixels) as a percentage with useful precision. */
export function percent(score: number | null) {
  if (score === null) return "";
  if (score === 0) return "0%";
  const value = score * 100;
  if (value < 0.01) return "<0.01%";
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}%`;
}

export function relativeTime(iso: string | null | undefined) {
  if (!iso) return "";
  const seconds = (Date.now() - Date.parse(iso)) / 1000;
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function statsSummary(stats: { changed: number; added: number; removed: number; failure: number } | null) {
  if (!stats) return "";
  const parts: string[] = [];
  if (stats.changed) parts.push(`${stats.changed} changed`);
  if (stats.added) parts.push(`${stats.added} added`);
  if (stats.removed) parts.push(`${stats.removed} removed`);
  if (stats.failure) parts.push(`${stats.failure} failed`);
  return parts.join(" · ");
}

const baselineReasons: Record<string, string> = {
  "merge-base": "the build of the merge base",
  ancestor: "the nearest ancestor commit with a build",
  "same-commit": "an approved build of the same commit",
  "base-branch": "the latest approved build of the base branch",
  monitoring: "the latest approved monitoring build",
};
const baselineApprovals: Record<string, string> = {
  reference: "a build of an auto-approved branch",
  orphan: "a first build, approved by nature",
  review: "approved by a review",
  "merged-pull-request": "approved because its pull request was merged",
};

/** Why a build's baseline was picked, and how it counts as approved, in words. */
export function baselineWhy(baseline: { reason: string; approval?: string | null }): string {
  const reason = baselineReasons[baseline.reason] ?? baseline.reason;
  const approval = baseline.approval ? baselineApprovals[baseline.approval] ?? baseline.approval : null;
  return approval ? `Baseline: ${reason}; ${approval}` : `Baseline: ${reason}`;
}

/** A file size as people read it: "812 B", "34 KB", "2.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const megabytes = bytes / (1024 * 1024);
  return megabytes < 10 ? `${megabytes.toFixed(1)} MB` : `${Math.round(megabytes)} MB`;
}
