// A secret the server shows once (a new token): what it is, the value selected on focus, and a
// Copy button; the server keeps only its hash, so the page says it will not be shown again.
import type { ComponentChildren } from "preact";

export function SecretOnce({ label, value, children }: { label: string; value: string; children: ComponentChildren }) {
  return (
    <div class="callout token-created" role="status">
      <p>{children} Copy it now: it is not shown again.</p>
      <div class="token-copy">
        <input type="text" readOnly value={value} aria-label={label} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" class="button button-small" onClick={() => navigator.clipboard?.writeText(value)}>
          Copy
        </button>
      </div>
    </div>
  );
}
