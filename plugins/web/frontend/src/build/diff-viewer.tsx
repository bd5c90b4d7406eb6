// One diff, four ways: side by side, overlay with the diff mask, a swipe slider and an onion
// skin. Zoom (ctrl/⌘ + wheel, +/-, double-click) and pan (drag, wheel) are shared by every
// pane. In comment mode a click on the image places a pin. A text snapshot (ARIA, JSON, YAML)
// is a line diff instead.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Diff, Snapshot, TestMask } from "../api";
import { StatusBadge } from "../components/status-badge";
import { percent } from "../format";
import { imageRect, MaskDraft, MaskedAreas, type ImageRect } from "./masked-areas";
import { isText, TextSnapshotPane } from "./text-snapshot-pane";
import { actualPixels, dpr, fitView, snap, zoomAt, type View } from "./view";

export type Mode = "side" | "overlay" | "swipe" | "onion";
export const modes: { id: Mode; label: string; key: string }[] = [
  { id: "side", label: "Side by side", key: "1" },
  { id: "overlay", label: "Overlay", key: "2" },
  { id: "swipe", label: "Swipe", key: "3" },
  { id: "onion", label: "Onion skin", key: "4" },
];

export interface Pin {
  threadId: string;
  label: string;
  x: number;
  y: number;
  resolved: boolean;
}

interface Props {
  diff: Diff;
  position: string;
  mode: Mode;
  onMode: (mode: Mode) => void;
  showMask: boolean;
  onToggleMask: () => void;
  commentMode: boolean;
  onToggleCommentMode: () => void;
  canComment: boolean;
  pins: Pin[];
  activeThread: string | null;
  onOpenThread: (threadId: string) => void;
  onPlacePin: (x: number, y: number, text: string) => Promise<void>;
  decision: Decision | undefined;
  /** Null for a viewer, who may not review: the page offers no per-snapshot decision. */
  onDecide: ((decision: Decision | undefined) => void) | null;
  onToggleIgnore: (() => void) | null;
  /** The page of the diff's test (its history, changes and comments), when it has one. */
  testHref: string | null;
  /** Where a Playwright trace opens (the session's `traceViewerUrl`). */
  traceViewerUrl?: string;
  /** The snapshots taken with this screenshot (its ARIA snapshot), shown beside it. */
  companions?: Diff[];
  /** How many diffs of the build have this diff's change (its fingerprint group), itself included. */
  sameChange: number;
  /** Ignores (or stops ignoring) the change on every diff of the group; null when not allowed. */
  onIgnoreSameChange?: ((ignore: boolean) => void) | null;
  /** One decision for all of them; null for a viewer or a diff with no group. */
  onDecideSameChange: ((decision: Decision) => void) | null;
  /** The masks in force on the diff's test, drawn over the new screenshot. */
  masks: TestMask[];
  /** Saves a mask drawn on the test; null when the caller may not (a viewer, no test). */
  onCreateMask: ((rect: ImageRect, note: string, branch: string | null) => Promise<void>) | null;
  /** The build's branch (a mask may hold on it only). */
  branch: string;
}

interface Layer {
  snapshot: Snapshot | { url: string; width: number | null; height: number | null };
  kind: "base" | "head" | "mask";
  opacity?: number;
}

/** Keys typed into a text field are text, not shortcuts (a slider or checkbox takes none). */
export function isTyping(target: EventTarget | null) {
  if (target instanceof HTMLInputElement) return !["range", "checkbox", "radio", "button"].includes(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

type Decision = "APPROVE" | "REQUEST_CHANGES";

/** The reviewer's verdict on one snapshot, sent with their review; a second click withdraws it. */
function DecisionButtons({ decision, onDecide }: { decision: Decision | undefined; onDecide: (decision: Decision | undefined) => void }) {
  const toggle = (verdict: Decision) => onDecide(decision === verdict ? undefined : verdict);
  return (
    <>
      <button type="button" class="button button-small button-ok" aria-label="This snapshot is OK"
        title="This snapshot is OK (sent with your review)" aria-pressed={decision === "APPROVE"} onClick={() => toggle("APPROVE")}>
        ✓ OK
      </button>
      <button type="button" class="button button-small button-no" aria-label="This snapshot needs changes"
        title="This snapshot needs changes (sent with your review)" aria-pressed={decision === "REQUEST_CHANGES"}
        onClick={() => toggle("REQUEST_CHANGES")}>
        ✕ Needs work
      </button>
    </>
  );
}

const isImage = (snapshot: Snapshot | null) => !!snapshot && snapshot.contentType.startsWith("image/");

function useElementSize(ref: { current: HTMLElement | null }) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    update();
    return () => observer.disconnect();
  }, []);
  return size;
}

export function DiffViewer(props: Props) {
  const { diff, mode, showMask, commentMode } = props;
  const stage = useRef<HTMLDivElement>(null);
  const stageSize = useElementSize(stage);
  const [natural, setNatural] = useState<Record<string, { width: number; height: number }>>({});
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0, fit: true });
  const [split, setSplit] = useState(0.5);
  const [onion, setOnion] = useState(0.5);
  const [draft, setDraft] = useState<{ x: number; y: number } | null>(null);
  const [maskMode, setMaskMode] = useState(false);
  const [drawing, setDrawing] = useState<ImageRect | null>(null);
  const [maskRect, setMaskRect] = useState<ImageRect | null>(null);

  const base = isImage(diff.base) ? diff.base : null;
  const head = isImage(diff.head) ? diff.head : null;
  const sizeOf = (snapshot: Snapshot | null) => {
    if (!snapshot) return { width: 0, height: 0 };
    const known = natural[snapshot.url];
    return { width: snapshot.width ?? known?.width ?? 0, height: snapshot.height ?? known?.height ?? 0 };
  };
  const canvas = {
    width: Math.max(sizeOf(base).width, sizeOf(head).width),
    height: Math.max(sizeOf(base).height, sizeOf(head).height),
  };
  const anchorSnapshot = head ?? base;
  const anchorSize = sizeOf(anchorSnapshot);
  const twoPanes = mode === "side" && !!base && !!head;
  const pane = { width: twoPanes ? Math.floor((stageSize.width - 1) / 2) : stageSize.width, height: stageSize.height };

  // A new diff or a new pane size re-fits, unless the reviewer zoomed.
  useEffect(() => {
    setDraft(null);
    setDrawing(null);
    setMaskRect(null);
  }, [diff.id]);
  useEffect(() => {
    setView(fitView(pane.width, pane.height, canvas.width, canvas.height));
  }, [diff.id]);
  useEffect(() => {
    setView((current) => (current.fit ? fitView(pane.width, pane.height, canvas.width, canvas.height) : current));
  }, [pane.width, pane.height, canvas.width, canvas.height]);

  const fit = () => setView(fitView(pane.width, pane.height, canvas.width, canvas.height));
  const zoomBy = (factor: number) => setView((v) => zoomAt(v, factor, pane.width / 2, pane.height / 2));
  const oneToOne = () => setView((v) => actualPixels(v, pane.width / 2, pane.height / 2));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "0") fit();
      else if (event.key === "=" || event.key === "+") zoomBy(1.25);
      else if (event.key === "-") zoomBy(0.8);
      else if (event.key === "z") oneToOne();
      else if (event.key === "m") props.onToggleMask();
      else if (event.key === "c" && props.canComment) props.onToggleCommentMode();
      else if (event.key === "x" && props.onCreateMask) setMaskMode((on) => !on);
      else return;
      event.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  const layersFor = (which: "base" | "head" | "single"): Layer[] => {
    const mask: Layer[] = showMask && diff.url ? [{ snapshot: { url: diff.url, width: canvas.width || null, height: canvas.height || null }, kind: "mask" }] : [];
    if (which === "base") return base ? [{ snapshot: base, kind: "base" }] : [];
    if (which === "head") return head ? [{ snapshot: head, kind: "head" }, ...mask] : [];
    if (!base || !head) return head ? [{ snapshot: head, kind: "head" }] : base ? [{ snapshot: base, kind: "base" }] : [];
    // The mask over a faded new screenshot: the changed pixels stand out in red.
    if (mode === "overlay") return [{ snapshot: head, kind: "head", opacity: mask.length ? 0.45 : 1 }, ...mask];
    if (mode === "onion") return [{ snapshot: base, kind: "base" }, { snapshot: head, kind: "head", opacity: onion }];
    return [{ snapshot: base, kind: "base" }, { snapshot: head, kind: "head" }];
  };

  const pins = props.pins.map((pin) => (
    <button
      key={pin.threadId}
      type="button"
      class={`pin${pin.resolved ? " pin-resolved" : ""}${props.activeThread === pin.threadId ? " pin-active" : ""}`}
      style={{ left: `${view.x + pin.x * anchorSize.width * view.scale}px`, top: `${view.y + pin.y * anchorSize.height * view.scale}px` }}
      aria-label={`Comment thread ${pin.label}`}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={() => props.onOpenThread(pin.threadId)}
    >
      {pin.label}
    </button>
  ));

  const draftForm = draft && (
    <Draft
      view={view}
      size={anchorSize}
      draft={draft}
      onCancel={() => setDraft(null)}
      onSave={async (text) => {
        await props.onPlacePin(draft.x, draft.y, text);
        setDraft(null);
      }}
    />
  );

  const placeAt = (px: number, py: number) => {
    if (!anchorSize.width || !anchorSize.height) return;
    const x = (px - view.x) / (anchorSize.width * view.scale);
    const y = (py - view.y) / (anchorSize.height * view.scale);
    if (x < 0 || y < 0 || x > 1 || y > 1) return;
    setDraft({ x, y });
  };

  const onDraw = (from: { x: number; y: number }, to: { x: number; y: number }, done: boolean) => {
    const rect = imageRect(view, from, to, canvas);
    if (!done) {
      setDrawing(rect);
      return;
    }
    setDrawing(null);
    if (rect.width >= 2 && rect.height >= 2) setMaskRect(rect);
  };
  const masked = (
    <>
      <MaskedAreas masks={props.masks} view={view} />
      {drawing && <div class="masked-area masked-area-draft" aria-hidden="true"
        style={{ left: `${view.x + drawing.x * view.scale}px`, top: `${view.y + drawing.y * view.scale}px`,
          width: `${drawing.width * view.scale}px`, height: `${drawing.height * view.scale}px` }} />}
      {maskRect && props.onCreateMask && (
        <MaskDraft view={view} rect={maskRect} branch={props.branch} onCancel={() => setMaskRect(null)}
          onSave={async (note, branch) => {
            await props.onCreateMask!(maskRect, note, branch);
            setMaskRect(null);
            setMaskMode(false);
          }} />
      )}
    </>
  );

  const paneProps = {
    view,
    setView,
    size: pane,
    commentMode,
    drawMode: maskMode,
    onDraw,
    onClickAt: placeAt,
    onLoaded: (url: string, width: number, height: number) =>
      setNatural((known) => (known[url] ? known : { ...known, [url]: { width, height } })),
  };

  let panes: ComponentChildren;
  if (!base && !head && (isText(diff.head) || isText(diff.base))) {
    panes = <TextSnapshotPane diff={diff} />;
  } else if (!base && !head) {
    panes = (
      <div class="viewer-empty">
        {diff.head || diff.base ? (
          <a href={(diff.head ?? diff.base)!.url} target="_blank" rel="noreferrer">
            Open the file ({(diff.head ?? diff.base)!.contentType})
          </a>
        ) : (
          "No screenshot"
        )}
      </div>
    );
  } else if (twoPanes) {
    panes = (
      <>
        <ImagePane {...paneProps} label="Baseline" layers={layersFor("base")} />
        <div class="pane-divider" aria-hidden="true" />
        <ImagePane {...paneProps} label="Changes" layers={layersFor("head")}>
          {masked}
          {pins}
          {draftForm}
        </ImagePane>
      </>
    );
  } else {
    panes = (
      <ImagePane
        {...paneProps}
        label={!base ? "New screenshot" : !head ? "Removed screenshot" : mode === "swipe" ? "Baseline" : modes.find((m) => m.id === mode)!.label}
        layers={layersFor("single")}
        swipe={mode === "swipe" && base && head ? { split, setSplit } : undefined}
      >
        {masked}
        {pins}
        {draftForm}
      </ImagePane>
    );
  }

  return (
    <section class="viewer" aria-label={`Screenshot ${diff.name}`}>
      <div class="viewer-head">
        <div class="viewer-title">
          <StatusBadge status={diff.status} />
          <h2 class="diff-title" title={diff.name}>{diff.name}</h2>
          <span class="muted small nowrap">{props.position}</span>
          {diff.score !== null && diff.score > 0 && <span class="score nowrap" title="Share of pixels that changed">{percent(diff.score)}</span>}
          {diff.test && diff.test.metrics.flakiness > 0 && (
            <span class="tag tag-flaky nowrap"
              title={`Over the metrics period: ${diff.test.metrics.changes} changes in ${diff.test.metrics.total} reference builds, stability ${Math.round(diff.test.metrics.stability * 100)}%`}>
              flaky {Math.round(diff.test.metrics.flakiness * 100)}%
            </span>
          )}
          {props.testHref && (
            <a class="small nowrap" href={props.testHref} title="This test's history, changes and comments">
              Test history
            </a>
          )}
          {diff.head?.pwTraceUrl && props.traceViewerUrl && (
            <a class="small nowrap" target="_blank" rel="noreferrer" title="The Playwright trace recorded with this screenshot"
              href={`${props.traceViewerUrl}?trace=${encodeURIComponent(diff.head.pwTraceUrl)}`}>
              Trace
            </a>
          )}
          {diff.change && diff.change.occurrences > 1 && (
            <span class="muted small nowrap" title="Times this change was seen over the metrics period">seen {diff.change.occurrences}×</span>
          )}
        </div>
        <div class="viewer-decision">
          {props.onToggleIgnore && diff.change && (
            <button type="button" class="button button-small" aria-pressed={diff.change.ignored} onClick={props.onToggleIgnore}
              title="A recurring, accepted difference (a clock, an ad slot) that should stop asking for review">
              {diff.change.ignored ? "Unignore" : "Ignore change"}
            </button>
          )}
          {props.onDecide && <DecisionButtons decision={props.decision} onDecide={props.onDecide} />}
          {props.onDecideSameChange && props.sameChange > 1 && (
            <span class="same-change small" role="group" aria-label={`All ${props.sameChange} with this change`}>
              All {props.sameChange}:
              <button type="button" class="link-button small" onClick={() => props.onDecideSameChange!("APPROVE")}
                aria-label={`Mark all ${props.sameChange} with this change OK`}>✓</button>
              <button type="button" class="link-button small" onClick={() => props.onDecideSameChange!("REQUEST_CHANGES")}
                aria-label={`Mark all ${props.sameChange} with this change as needing work`}>✕</button>
              {props.onIgnoreSameChange && diff.change && (
                <button type="button" class="link-button small" onClick={() => props.onIgnoreSameChange!(!diff.change!.ignored)}
                  aria-label={`${diff.change.ignored ? "Stop ignoring" : "Ignore"} the change on all ${props.sameChange}`}>
                  {diff.change.ignored ? "unignore" : "ignore"}
                </button>
              )}
            </span>
          )}
        </div>
      </div>
      <div class="viewer-toolbar" role="toolbar" aria-label="View">
        <div class="segmented" role="radiogroup" aria-label="View mode">
          {modes.map((m) => (
            <button key={m.id} type="button" role="radio" aria-checked={mode === m.id} title={`${m.label} (${m.key})`}
              class={mode === m.id ? "active" : ""} onClick={() => props.onMode(m.id)}>
              {m.label}
            </button>
          ))}
        </div>
        {mode === "swipe" && base && head && (
          <label class="range-label">
            Swipe
            <input type="range" min={0} max={1} step={0.01} value={split} aria-label="Swipe position"
              onInput={(e) => setSplit(Number((e.target as HTMLInputElement).value))} />
          </label>
        )}
        {mode === "onion" && base && head && (
          <label class="range-label">
            Opacity
            <input type="range" min={0} max={1} step={0.01} value={onion} aria-label="Onion skin opacity of the new screenshot"
              onInput={(e) => setOnion(Number((e.target as HTMLInputElement).value))} />
          </label>
        )}
        <label class="check">
          <input type="checkbox" checked={showMask} disabled={!diff.url} onChange={props.onToggleMask} />
          Diff mask
        </label>
        <span class="toolbar-gap" />
        {props.onCreateMask && (
          <button type="button" class={`button button-small${maskMode ? " button-active" : ""}`} aria-pressed={maskMode}
            onClick={() => setMaskMode(!maskMode)} aria-label="Mask an area"
            title="Drag over an area that changes on its own (a clock, an ad): later builds of this test ignore it (x)">
            Mask
          </button>
        )}
        {props.canComment && (
          <button type="button" class={`button button-small${commentMode ? " button-active" : ""}`} aria-pressed={commentMode}
            onClick={props.onToggleCommentMode} title="Click on the image to place a comment (c)" aria-label="Comment on the image">
            Comment
          </button>
        )}
        <div class="zoom" role="group" aria-label="Zoom">
          <button type="button" class="button button-small" onClick={() => zoomBy(0.8)} aria-label="Zoom out">−</button>
          <span class="zoom-value" aria-live="polite">{Math.round(view.scale * dpr() * 100)}%</span>
          <button type="button" class="button button-small" onClick={() => zoomBy(1.25)} aria-label="Zoom in">+</button>
          <button type="button" class="button button-small" onClick={fit} aria-pressed={view.fit}>Fit</button>
          <button type="button" class="button button-small" onClick={oneToOne} title="One image pixel per screen pixel">1:1</button>
        </div>
      </div>
      <div class="viewer-body">
        <div class={`viewer-stage${commentMode || maskMode ? " commenting" : ""}`} ref={stage}>
          {stageSize.width > 0 && panes}
        </div>
        {props.companions && props.companions.length > 0 && (
          <aside class="viewer-companions" aria-label="Taken with this screenshot">
            {props.companions.map((companion) => (
              <section key={companion.id} class="viewer-companion" aria-label={`Snapshot ${companion.name}`}>
                <h3 class="companion-title">
                  <span class="ellipsis">{companion.name}</span> <span class="tag">{companion.status}</span>
                </h3>
                {isText(companion.head) || isText(companion.base) ? (
                  <TextSnapshotPane diff={companion} />
                ) : (
                  <a href={(companion.head ?? companion.base)?.url} target="_blank" rel="noreferrer">Open the file</a>
                )}
              </section>
            ))}
          </aside>
        )}
      </div>
    </section>
  );
}

interface PaneProps {
  label: string;
  layers: Layer[];
  view: View;
  setView: (update: (view: View) => View) => void;
  size: { width: number; height: number };
  commentMode: boolean;
  /** A drag draws a rectangle (reported as it grows, then `done`) instead of panning. */
  drawMode: boolean;
  onDraw: (from: { x: number; y: number }, to: { x: number; y: number }, done: boolean) => void;
  onClickAt: (x: number, y: number) => void;
  onLoaded: (url: string, width: number, height: number) => void;
  swipe?: { split: number; setSplit: (split: number) => void };
  children?: ComponentChildren;
}

function ImagePane({ label, layers, view, setView, size, commentMode, drawMode, onDraw, onClickAt, onLoaded, swipe, children }: PaneProps) {
  const element = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; moved: boolean; swipe: boolean } | null>(null);
  const draw = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const pane = element.current!;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = pane.getBoundingClientRect();
      if (event.ctrlKey || event.metaKey) {
        setView((v) => zoomAt(v, Math.exp(-event.deltaY * 0.0025), event.clientX - rect.left, event.clientY - rect.top));
      } else {
        setView((v) => ({ ...v, x: snap(v.x - event.deltaX), y: snap(v.y - event.deltaY), fit: false }));
      }
    };
    pane.addEventListener("wheel", onWheel, { passive: false });
    return () => pane.removeEventListener("wheel", onWheel);
  }, [setView]);

  const point = (event: PointerEvent | MouseEvent) => {
    const rect = element.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const splitPx = swipe ? snap(swipe.split * size.width) : 0;
  return (
    <div
      ref={element}
      class="pane"
      style={{ width: `${size.width}px` }}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        const p = point(event);
        if (drawMode) {
          draw.current = p;
          (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
          return;
        }
        const onHandle = !!swipe && Math.abs(p.x - splitPx) < 8;
        drag.current = { x: event.clientX, y: event.clientY, moved: false, swipe: onHandle };
        (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (draw.current) {
          onDraw(draw.current, point(event), false);
          return;
        }
        const state = drag.current;
        if (!state) return;
        const dx = event.clientX - state.x;
        const dy = event.clientY - state.y;
        if (!state.moved && Math.abs(dx) + Math.abs(dy) < 3) return;
        state.moved = true;
        state.x = event.clientX;
        state.y = event.clientY;
        if (state.swipe && swipe) swipe.setSplit(Math.min(1, Math.max(0, point(event).x / size.width)));
        else setView((v) => ({ ...v, x: snap(v.x + dx), y: snap(v.y + dy), fit: false }));
      }}
      onPointerUp={(event) => {
        if (draw.current) {
          const from = draw.current;
          draw.current = null;
          onDraw(from, point(event), true);
          return;
        }
        const state = drag.current;
        drag.current = null;
        if (state && !state.moved && commentMode) {
          const p = point(event);
          onClickAt(p.x, p.y);
        }
      }}
      onDblClick={(event) => {
        const p = point(event);
        setView((v) => (v.scale * dpr() < 0.99 ? actualPixels(v, p.x, p.y) : zoomAt(v, 2, p.x, p.y)));
      }}
    >
      {layers.map((layer, i) => {
        const width = (layer.snapshot.width ?? 0) * view.scale || undefined;
        const clip = swipe && layer.kind === "head" ? `inset(0 0 0 ${Math.max(0, splitPx - view.x)}px)` : undefined;
        return (
          <img
            key={`${layer.kind}-${i}`}
            class={`layer layer-${layer.kind}`}
            src={layer.snapshot.url}
            alt={layer.kind === "mask" ? "" : `${layer.kind === "base" ? "Baseline" : "New"} screenshot`}
            draggable={false}
            decoding="async"
            onLoad={(e) => {
              const img = e.target as HTMLImageElement;
              onLoaded(layer.snapshot.url, img.naturalWidth, img.naturalHeight);
            }}
            style={{
              left: `${view.x}px`,
              top: `${view.y}px`,
              width: width ? `${width}px` : undefined,
              transform: width ? undefined : `scale(${view.scale})`,
              transformOrigin: "0 0",
              opacity: layer.opacity ?? undefined,
              clipPath: clip,
              imageRendering: view.scale * dpr() > 1.01 ? "pixelated" : "auto",
            }}
          />
        );
      })}
      {swipe && (
        <div class="swipe-handle" style={{ left: `${splitPx}px` }} aria-hidden="true">
          <span />
        </div>
      )}
      <span class="pane-label">{label}</span>
      {swipe && <span class="pane-label pane-label-right">Changes</span>}
      {children}
    </div>
  );
}

function Draft({ view, size, draft, onCancel, onSave }: {
  view: View;
  size: { width: number; height: number };
  draft: { x: number; y: number };
  onCancel: () => void;
  onSave: (text: string) => Promise<void>;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const left = view.x + draft.x * size.width * view.scale;
  const top = view.y + draft.y * size.height * view.scale;
  return (
    <>
      <span class="pin pin-draft" style={{ left: `${left}px`, top: `${top}px` }} aria-hidden="true">+</span>
      <form
        class="draft"
        style={{ left: `${left + 14}px`, top: `${top + 8}px` }}
        onPointerDown={(e) => e.stopPropagation()}
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            await onSave(text);
          } catch (err) {
            setError((err as Error).message);
            setBusy(false);
          }
        }}
      >
        <textarea autoFocus aria-label="Comment" placeholder="Comment on this spot…" value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") onCancel();
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) (e.currentTarget.form as HTMLFormElement).requestSubmit();
          }} />
        {error && <p class="form-error">{error}</p>}
        <div class="draft-actions">
          <button type="button" class="button button-small" onClick={onCancel}>Cancel</button>
          <button type="submit" class="button button-small button-primary" disabled={busy || !text.trim()}>Comment</button>
        </div>
      </form>
    </>
  );
}
