// Masked areas of a test on the diff viewer: rectangles drawn over the screenshot whose pixels
// later diffs of the test do not count (a clock, an ad). The viewer shows the test's masks in
// force; a reviewer in mask mode drags a rectangle, then says why and whether it holds on every
// branch or only this build's, and saves it (POST …/tests/{testId}/masks).
import { useState } from "preact/hooks";
import type { TestMask } from "../api";

/** A rectangle in the image's own pixels. */
export interface ImageRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface View {
  scale: number;
  x: number;
  y: number;
}

/** The rectangle between two points in the pane, in image pixels, clipped to the image. */
export function imageRect(view: View, from: { x: number; y: number }, to: { x: number; y: number }, size: { width: number; height: number }): ImageRect {
  const toImage = (px: number, offset: number, limit: number) => Math.min(limit, Math.max(0, (px - offset) / view.scale));
  const x0 = toImage(Math.min(from.x, to.x), view.x, size.width);
  const x1 = toImage(Math.max(from.x, to.x), view.x, size.width);
  const y0 = toImage(Math.min(from.y, to.y), view.y, size.height);
  const y1 = toImage(Math.max(from.y, to.y), view.y, size.height);
  return { x: Math.floor(x0), y: Math.floor(y0), width: Math.ceil(x1) - Math.floor(x0), height: Math.ceil(y1) - Math.floor(y0) };
}

const placed = (view: View, rect: ImageRect) => ({
  left: `${view.x + rect.x * view.scale}px`,
  top: `${view.y + rect.y * view.scale}px`,
  width: `${rect.width * view.scale}px`,
  height: `${rect.height * view.scale}px`,
});

export function MaskedAreas({ masks, view }: { masks: TestMask[]; view: View }) {
  return (
    <>
      {masks.map((mask) => (
        <div key={mask.id} class="masked-area" style={placed(view, mask)} role="img"
          aria-label={`Masked area${mask.note ? `: ${mask.note}` : ""}`}
          title={`Masked${mask.branch ? ` on ${mask.branch}` : ""}${mask.note ? `: ${mask.note}` : ""}`} />
      ))}
    </>
  );
}

interface DraftProps {
  view: View;
  rect: ImageRect;
  /** The build's branch, offered as the only branch the mask holds on. */
  branch: string;
  onCancel: () => void;
  onSave: (note: string, branch: string | null) => Promise<void>;
}

export function MaskDraft({ view, rect, branch, onCancel, onSave }: DraftProps) {
  const [note, setNote] = useState("");
  const [thisBranch, setThisBranch] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = placed(view, rect);
  return (
    <>
      <div class="masked-area masked-area-draft" style={box} aria-hidden="true" />
      <form class="draft mask-draft" style={{ left: box.left, top: `calc(${box.top} + ${box.height} + 6px)` }}
        onPointerDown={(e) => e.stopPropagation()}
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            await onSave(note.trim(), thisBranch ? branch : null);
          } catch (err) {
            setError((err as Error).message);
            setBusy(false);
          }
        }}>
        <p class="small muted">
          Mask {rect.width}×{rect.height} px: later builds of this test ignore it.
        </p>
        <input type="text" autoFocus aria-label="Why mask this area" placeholder="Why (a clock, an ad)…" value={note}
          onInput={(e) => setNote((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => e.key === "Escape" && onCancel()} />
        <label class="check small">
          <input type="checkbox" checked={thisBranch} onChange={(e) => setThisBranch((e.target as HTMLInputElement).checked)} />
          Only on {branch}
        </label>
        {error && <p class="form-error">{error}</p>}
        <div class="draft-actions">
          <button type="button" class="button button-small" onClick={onCancel}>Cancel</button>
          <button type="submit" class="button button-small button-primary" disabled={busy}>Mask</button>
        </div>
      </form>
    </>
  );
}
