// A list that renders only the rows in view (plus a margin), so a build of thousands of diffs
// scrolls as smoothly as one of ten. Rows have known heights (by kind). While the list moves by
// more than half a screen at a time (a drag of the scroll bar, a fling, a jump), rows are told
// so that they can leave out what is costly to start (their images) until it settles: every
// frame of a fast scroll then mounts text only.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";

interface Props<T> {
  items: T[];
  height: (item: T) => number;
  /** `moving`: the list is moving fast; rows may leave out their images until it stops. */
  render: (item: T, index: number, moving: boolean) => ComponentChildren;
  itemKey: (item: T) => string;
  /** Index to keep in view (the selected row). */
  focusIndex?: number;
  label: string;
  overscan?: number;
}

/** Index of the last offset <= value (offsets ascending). */
function lastAtOrBefore(offsets: number[], value: number) {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid] <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** How long after its last fast move the list counts as settled. */
const settleMs = 120;

export function VirtualList<T>({ items, height, render, itemKey, focusIndex, label, overscan = 240 }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [moving, setMoving] = useState(false);
  const settleTimer = useRef(0);
  useEffect(() => () => clearTimeout(settleTimer.current), []);

  const onScroll = (event: Event) => {
    const top = (event.target as HTMLDivElement).scrollTop;
    if (Math.abs(top - scrollTop) > viewport / 2) {
      setMoving(true);
      clearTimeout(settleTimer.current);
      settleTimer.current = window.setTimeout(() => setMoving(false), settleMs);
    }
    setScrollTop(top);
  };

  const offsets = useMemo(() => {
    const result = new Array<number>(items.length + 1);
    result[0] = 0;
    for (let i = 0; i < items.length; i++) result[i + 1] = result[i] + height(items[i]);
    return result;
  }, [items, height]);
  const total = offsets[items.length];

  useLayoutEffect(() => {
    const element = scroller.current!;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    setViewport(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = scroller.current;
    if (!element || focusIndex === undefined || focusIndex < 0 || focusIndex >= items.length) return;
    const top = offsets[focusIndex];
    const bottom = offsets[focusIndex + 1];
    if (top < element.scrollTop) element.scrollTop = Math.max(0, top - 32);
    else if (bottom > element.scrollTop + element.clientHeight) element.scrollTop = bottom - element.clientHeight + 8;
  }, [focusIndex, offsets]);

  const first = items.length ? lastAtOrBefore(offsets, Math.max(0, scrollTop - overscan)) : 0;
  const last = items.length ? Math.min(items.length - 1, lastAtOrBefore(offsets, scrollTop + viewport + overscan)) : -1;
  const rows: ComponentChildren[] = [];
  for (let i = first; i <= last; i++) {
    rows.push(
      <div key={itemKey(items[i])} role="listitem" class="vrow" style={{ top: `${offsets[i]}px`, height: `${height(items[i])}px` }}>
        {render(items[i], i, moving)}
      </div>,
    );
  }
  return (
    <div
      class="vlist"
      ref={scroller}
      role="list"
      aria-label={label}
      onScroll={onScroll}
    >
      <div class="vlist-space" style={{ height: `${total}px` }}>
        {rows}
      </div>
    </div>
  );
}
