// Zoom and pan shared by every pane of the viewer: one image pixel lands on the same screen
// offset in each, whatever the mode. `scale` is CSS pixels per image pixel; "1:1" means one
// image pixel per device pixel, and offsets are rounded to whole device pixels so images are
// never resampled by a fraction (no blur).

export interface View {
  scale: number;
  x: number;
  y: number;
  fit: boolean;
}

export const dpr = () => window.devicePixelRatio || 1;

export function snap(value: number) {
  const ratio = dpr();
  return Math.round(value * ratio) / ratio;
}

export function clampScale(scale: number) {
  return Math.min(32, Math.max(0.02, scale));
}

/**
 * The view that shows the whole image (never enlarged past one CSS pixel per image pixel); a
 * page more than three panes tall fits its width instead and is scrolled with the wheel.
 */
export function fitView(paneWidth: number, paneHeight: number, width: number, height: number): View {
  if (!width || !height || !paneWidth || !paneHeight) return { scale: 1, x: 0, y: 0, fit: true };
  const byWidth = paneWidth / width;
  const tall = height * byWidth > paneHeight * 3;
  const scale = Math.min(1, tall ? byWidth : Math.min(byWidth, paneHeight / height));
  const x = snap(Math.max(0, (paneWidth - width * scale) / 2));
  const y = snap(Math.max(0, (paneHeight - height * scale) / 2));
  return { scale, x, y, fit: true };
}

/** Zooms by `factor` keeping the image point under (px, py) (pane coordinates) in place. */
export function zoomAt(view: View, factor: number, px: number, py: number): View {
  const scale = clampScale(view.scale * factor);
  const ratio = scale / view.scale;
  return { scale, x: snap(px - (px - view.x) * ratio), y: snap(py - (py - view.y) * ratio), fit: false };
}

/** One image pixel per device pixel, centred on the pane point (px, py). */
export function actualPixels(view: View, px: number, py: number): View {
  return zoomAt(view, 1 / dpr() / view.scale, px, py);
}
