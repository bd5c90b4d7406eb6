// A line diff of two texts (ARIA snapshots, JSON, YAML): the longest common subsequence of
// their lines, so unchanged lines pair up and each changed line shows once as removed and once
// as added. Texts beyond `maxCells` line pairs (the table's size) keep only their common
// beginning and end and show the middle as removed then added: still right, less minimal.

export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
  /** 1-based line numbers in the base and the head text. */
  baseLine?: number;
  headLine?: number;
}

const maxCells = 4_000_000;

export function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function diffLines(base: string[], head: string[]): DiffLine[] {
  let start = 0;
  while (start < base.length && start < head.length && base[start] === head[start]) start++;
  let endBase = base.length;
  let endHead = head.length;
  while (endBase > start && endHead > start && base[endBase - 1] === head[endHead - 1]) {
    endBase--;
    endHead--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ kind: "same", text: base[i], baseLine: i + 1, headLine: i + 1 });
  out.push(...middle(base, head, start, endBase, endHead));
  for (let i = endBase, j = endHead; i < base.length; i++, j++)
    out.push({ kind: "same", text: base[i], baseLine: i + 1, headLine: j + 1 });
  return out;
}

function middle(base: string[], head: string[], start: number, endBase: number, endHead: number): DiffLine[] {
  const n = endBase - start;
  const m = endHead - start;
  const removedAll = () => base.slice(start, endBase).map((text, k) => ({ kind: "removed" as const, text, baseLine: start + k + 1 }));
  const addedAll = () => head.slice(start, endHead).map((text, k) => ({ kind: "added" as const, text, headLine: start + k + 1 }));
  if (n === 0 || m === 0 || n * m > maxCells) return [...removedAll(), ...addedAll()];
  // lengths[i][j]: the LCS of base[start+i..] and head[start+j..], in one flat array.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i * width + j] =
        base[start + i] === head[start + j]
          ? lengths[(i + 1) * width + j + 1] + 1
          : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (base[start + i] === head[start + j]) {
      out.push({ kind: "same", text: base[start + i], baseLine: start + i + 1, headLine: start + j + 1 });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
      out.push({ kind: "removed", text: base[start + i], baseLine: start + i + 1 });
      i++;
    } else {
      out.push({ kind: "added", text: head[start + j], headLine: start + j + 1 });
      j++;
    }
  }
  for (; i < n; i++) out.push({ kind: "removed", text: base[start + i], baseLine: start + i + 1 });
  for (; j < m; j++) out.push({ kind: "added", text: head[start + j], headLine: start + j + 1 });
  return out;
}
