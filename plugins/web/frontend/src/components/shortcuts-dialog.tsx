import { useEffect, useRef } from "preact/hooks";

export const shortcuts: [string, string][] = [
  ["j / →", "next screenshot"],
  ["k / ←", "previous screenshot"],
  ["1 2 3 4", "side by side, overlay, swipe, onion skin"],
  ["/", "search the screenshots by name"],
  ["a", "approve the build"],
  ["r", "request changes"],
  ["n", "the next build waiting for your review, after a decision"],
  ["m", "show or hide the diff mask"],
  ["c", "comment mode: click the image to place a pin"],
  ["x", "mask mode: draw an area of the test that changes on its own"],
  ["+ / −", "zoom in / out"],
  ["0", "fit the screenshot"],
  ["z", "1:1, one image pixel per screen pixel"],
  ["?", "this list"],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="shortcuts" aria-label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <dl>
        {shortcuts.map(([keys, what]) => (
          <div key={keys}>
            <dt>{keys.split(" ").map((k, i) => (k === "/" && keys !== "/" ? " / " : <kbd key={i}>{k}</kbd>))}</dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button class="button" type="submit">Close</button>
      </form>
    </dialog>
  );
}
