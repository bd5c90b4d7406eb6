// Builds and screenshots over time from the analytics plugin (GET /accounts/{a}/analytics), for
// an account or one of its projects, over the last 30 days, 12 weeks or 12 months (UTC).
import { useEffect, useState } from "preact/hooks";
import { api, type Analytics } from "../api";
import { ActivityChart } from "./activity-chart";

export const ranges = [
  { id: "30d", label: "30 days", groupBy: "day", count: 30 },
  { id: "12w", label: "12 weeks", groupBy: "week", count: 12 },
  { id: "12m", label: "12 months", groupBy: "month", count: 12 },
] as const;
export type Range = (typeof ranges)[number];

export function rangeOf(id: string | null): Range {
  return ranges.find((range) => range.id === id) ?? ranges[0];
}

/** The start of the range's first bucket: the buckets end with the one holding `now`. */
export function rangeStart(range: Range, now = new Date()) {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (range.groupBy === "day") return new Date(day - (range.count - 1) * 86_400_000);
  if (range.groupBy === "week") {
    const monday = day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
    return new Date(monday - (range.count - 1) * 7 * 86_400_000);
  }
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (range.count - 1), 1));
}

export function RangePicker({ range, onRange }: { range: Range; onRange: (id: string) => void }) {
  return (
    <div class="segmented" role="radiogroup" aria-label="Period">
      {ranges.map((option) => (
        <button
          key={option.id}
          type="button"
          role="radio"
          aria-checked={option.id === range.id}
          class={option.id === range.id ? "active" : ""}
          onClick={() => onRange(option.id)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** The two charts, or nothing (with the reason) when the figures cannot be read. */
export function ActivityCharts({ account, projectName, range }: { account: string; projectName?: string; range: Range }) {
  const [data, setData] = useState<Analytics | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setData(null);
    setError(null);
    // Both ends from the page's own clock, so the buckets drawn are the ones asked for even when
    // the server's clock has already passed into the next bucket.
    const now = new Date();
    const query: { from: string; to: string; groupBy: string; projectNames?: string } = {
      from: rangeStart(range, now).toISOString(),
      to: now.toISOString(),
      groupBy: range.groupBy,
    };
    if (projectName) query.projectNames = projectName;
    api.analytics(account, query).then(setData, (e) => setError(e.message));
  }, [account, projectName, range.id]);

  if (error) return <p class="form-error" role="alert">Activity: {error}</p>;
  if (!data) return <div class="charts charts-loading" aria-busy="true" />;
  const builds = data.builds.series;
  const buckets = builds.map((point) => point.ts);
  return (
    <div class="charts">
      <ActivityChart
        title="Builds"
        unit="builds"
        buckets={buckets}
        groupBy={range.groupBy}
        layers={[
          { label: "No changes", tone: "fill-ok", values: builds.map((p) => p.noChanges) },
          { label: "Approved", tone: "fill-info", values: builds.map((p) => p.accepted) },
          { label: "Changes requested", tone: "fill-bad", values: builds.map((p) => p.rejected) },
          { label: "To review", tone: "fill-warn", values: builds.map((p) => Math.max(0, p.changesDetected - p.accepted - p.rejected)) },
          { label: "Other", tone: "fill-muted", values: builds.map((p) => Math.max(0, p.total - p.changesDetected - p.noChanges)) },
        ]}
      />
      <ActivityChart
        title="Screenshots"
        unit="screenshots"
        buckets={data.screenshots.series.map((point) => point.ts)}
        groupBy={range.groupBy}
        layers={[{ label: "Screenshots", tone: "fill-accent", values: data.screenshots.series.map((p) => p.total) }]}
      />
    </div>
  );
}
