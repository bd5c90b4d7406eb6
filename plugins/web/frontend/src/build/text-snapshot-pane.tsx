// A text snapshot (an ARIA snapshot's YAML, JSON, plain text) shown as what it is: its lines,
// with the baseline's and the build's versions merged into one line diff, removed lines marked
// "−" and added ones "+", each with its line number in either version. The texts are fetched
// from their signed URLs and shown as text, never interpreted.
import { useEffect, useState } from "preact/hooks";
import type { Diff, Snapshot } from "../api";
import { diffLines, splitLines, type DiffLine } from "./text-diff";

/** The content types shown as text. */
export const isText = (snapshot: Snapshot | null) =>
  !!snapshot && /^(text\/|application\/(json|yaml|xml))/.test(snapshot.contentType) && snapshot.contentType !== "text/html";

async function textOf(snapshot: Snapshot | null) {
  if (!snapshot) return [];
  const response = await fetch(snapshot.url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${response.status} reading ${snapshot.name}`);
  return splitLines(await response.text());
}

export function TextSnapshotPane({ diff }: { diff: Diff }) {
  const [lines, setLines] = useState<DiffLine[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setLines(null);
    setError(null);
    Promise.all([textOf(diff.base), textOf(diff.head)]).then(
      ([base, head]) => current && setLines(diffLines(base, head)),
      (e) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [diff.id, diff.base?.url, diff.head?.url]);

  if (error) return <p class="form-error" role="alert">{error}</p>;
  if (!lines) return <p class="muted" aria-busy="true">Loading…</p>;
  const removed = lines.filter((line) => line.kind === "removed").length;
  const added = lines.filter((line) => line.kind === "added").length;
  const count = (n: number, word: string) => `${n} line${n === 1 ? "" : "s"} ${word}`;
  return (
    <div class="text-diff" role="region" aria-label="Text diff">
      <p class="muted small">
        {!diff.base
          ? "New text snapshot"
          : !diff.head
            ? "Removed text snapshot"
            : removed || added
              ? `${count(removed, "removed")}, ${count(added, "added")}`
              : "No line changed"}
      </p>
      <table class="text-diff-lines">
        <tbody>
          {lines.map((line, index) => (
            <tr key={index} class={`line-${line.kind}`}>
              <td class="line-number">{line.baseLine ?? ""}</td>
              <td class="line-number">{line.headLine ?? ""}</td>
              <td class="line-mark" aria-label={line.kind === "same" ? undefined : line.kind}>
                {line.kind === "removed" ? "−" : line.kind === "added" ? "+" : ""}
              </td>
              <td class="line-text">{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
