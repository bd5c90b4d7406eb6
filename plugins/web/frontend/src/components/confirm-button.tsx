// A button for what cannot be undone (revoke a token, remove a person): the first click asks,
// naming what goes, and offers Cancel; the second does it. The question stays open when the
// action answers `false` (the server refused, and the section shows why).
import { useState } from "preact/hooks";

interface Props {
  /** The quiet first button's text ("Revoke"). */
  label: string;
  /** Its accessible name, naming the object ("Revoke Docs CI"). */
  ariaLabel: string;
  /** The confirmation button's text ("Revoke Docs CI"). */
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}

export function ConfirmButton({ label, ariaLabel, confirmLabel, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="link-button small" aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <>
      <button type="button" class="button button-small button-reject"
        onClick={async () => {
          if ((await onConfirm()) !== false) setAsking(false);
        }}>
        {confirmLabel}
      </button>
      <button type="button" class="link-button small" onClick={() => setAsking(false)}>Cancel</button>
    </>
  );
}
