// A stacked bar chart drawn as SVG: one bar per time bucket, one coloured layer per series.
// The SVG is an image with a text summary for assistive technology, each bar carries a
// tooltip, and the same figures are available as a table under the chart.
import { useId } from "preact/hooks";

export interface ChartLayer {
  label: string;
  /** A class of styles.css that colours the layer (`fill-ok`, `fill-warn`, ...). */
  tone: string;
  values: number[];
}

interface Props {
  title: string;
  /** What one unit is, plural ("builds"). */
  unit: string;
  /** Start of each bucket, epoch milliseconds (UTC). */
  buckets: number[];
  groupBy: "day" | "week" | "month";
  layers: ChartLayer[];
}

const width = 560;
const height = 190;
const margin = { top: 10, right: 6, bottom: 22, left: 34 };
const plotWidth = width - margin.left - margin.right;
const plotHeight = height - margin.top - margin.bottom;

/** The smallest of 1, 2, 4, 5 × 10^k at or above `value` (at least 1). */
export function niceCeiling(value: number) {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export function bucketLabel(ts: number, groupBy: Props["groupBy"], long = false) {
  const date = new Date(ts);
  if (groupBy === "month")
    return date.toLocaleDateString("en-US", { month: long ? "long" : "short", year: long || date.getUTCMonth() === 0 ? "numeric" : undefined, timeZone: "UTC" });
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: long ? "numeric" : undefined, timeZone: "UTC" });
}

/** "on Nov 3, 2026", "in the week of Nov 3, 2026", "in November 2026". */
function bucketPhrase(ts: number, groupBy: Props["groupBy"]) {
  const label = bucketLabel(ts, groupBy, true);
  return groupBy === "day" ? `on ${label}` : groupBy === "week" ? `in the week of ${label}` : `in ${label}`;
}

const format = (value: number) => value.toLocaleString("en-US");

export function ActivityChart({ title, unit, buckets, groupBy, layers }: Props) {
  const id = useId();
  const totals = buckets.map((_, i) => layers.reduce((sum, layer) => sum + (layer.values[i] ?? 0), 0));
  const sum = totals.reduce((a, b) => a + b, 0);
  const top = niceCeiling(Math.max(0, ...totals));
  const ticks = top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const band = plotWidth / Math.max(1, buckets.length);
  const barWidth = Math.max(1, Math.min(28, band * 0.72));
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  // About six dates along the axis, always the last one (the current bucket).
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 6));
  const labelled = buckets.map((_, i) => (buckets.length - 1 - i) % labelEvery === 0);
  const busiest = totals.indexOf(Math.max(...totals));
  const summary =
    sum === 0
      ? `No ${unit} in this period.`
      : `${format(sum)} ${unit} in ${buckets.length} ${groupBy}s; the most, ${format(totals[busiest])}, ${bucketPhrase(buckets[busiest], groupBy)}.`;

  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption class="chart-head">
        <span id={`${id}-title`} class="chart-title">
          {title}
        </span>
        <span class="chart-total">{format(sum)}</span>
      </figcaption>
      <svg class="chart-svg" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <desc id={`${id}-desc`}>{summary}</desc>
        <g class="chart-grid" aria-hidden="true">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
              <text x={margin.left - 6} y={y(tick)} dy="0.32em" text-anchor="end">
                {format(tick)}
              </text>
            </g>
          ))}
        </g>
        {buckets.map((ts, i) => {
          const x = margin.left + i * band + (band - barWidth) / 2;
          let base = 0;
          const parts = layers.filter((layer) => layer.values[i]).map((layer) => `${format(layer.values[i])} ${layer.label.toLowerCase()}`);
          return (
            <g key={ts} class="chart-bar">
              <title>
                {groupBy === "week" ? "Week of " : ""}
                {bucketLabel(ts, groupBy, true)}: {format(totals[i])} {unit}
                {parts.length > 1 ? ` (${parts.join(", ")})` : ""}
              </title>
              {/* An invisible full-height target, so thin bars still show their tooltip. */}
              <rect class="chart-hit" x={margin.left + i * band} y={margin.top} width={band} height={plotHeight} />
              {layers.map((layer) => {
                const value = layer.values[i] ?? 0;
                if (!value) return null;
                const rect = <rect key={layer.label} class={layer.tone} x={x} y={y(base + value)} width={barWidth} height={y(base) - y(base + value)} />;
                base += value;
                return rect;
              })}
            </g>
          );
        })}
        <g class="chart-x-labels" aria-hidden="true">
          {buckets.map((ts, i) =>
            labelled[i] ? (
              <text key={ts} x={margin.left + i * band + band / 2} y={height - 6} text-anchor="middle">
                {bucketLabel(ts, groupBy)}
              </text>
            ) : null,
          )}
        </g>
      </svg>
      {layers.length > 1 && (
        <ul class="chart-legend">
          {layers.map((layer) => (
            <li key={layer.label}>
              <svg width="10" height="10" aria-hidden="true">
                <rect class={layer.tone} width="10" height="10" rx="2" />
              </svg>
              {layer.label} <span class="muted">{format(layer.values.reduce((a, b) => a + b, 0))}</span>
            </li>
          ))}
        </ul>
      )}
      <details class="chart-table">
        <summary>{title} as a table</summary>
        <div class="chart-table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{groupBy === "day" ? "Day" : groupBy === "week" ? "Week of" : "Month"}</th>
                {layers.length > 1 && layers.map((layer) => <th key={layer.label} scope="col">{layer.label}</th>)}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {buckets.map((ts, i) => (
                <tr key={ts}>
                  <th scope="row">{bucketLabel(ts, groupBy, true)}</th>
                  {layers.length > 1 && layers.map((layer) => <td key={layer.label}>{format(layer.values[i] ?? 0)}</td>)}
                  <td>{format(totals[i])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
