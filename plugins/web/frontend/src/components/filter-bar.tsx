import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

/** A list's filters: the branch (applied on Enter) and the list's own controls after it. */
export function FilterBar({ branch, onBranch, children }: { branch: string; onBranch: (branch: string | null) => void; children?: ComponentChildren }) {
  const [input, setInput] = useState(branch);
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        onBranch(input.trim() || null);
      }}
    >
      <label class="filter">
        <span>Branch</span>
        <input
          type="search"
          value={input}
          placeholder="any branch"
          aria-label="Filter by branch"
          onInput={(e) => setInput((e.target as HTMLInputElement).value)}
        />
      </label>
      {children}
    </form>
  );
}

/** A filter chosen from a list; the empty value means "any". */
export function SelectFilter(props: { label: string; name: string; value: string; any: string; options: [string, string][]; onChange: (value: string | null) => void }) {
  return (
    <label class="filter">
      <span>{props.label}</span>
      <select aria-label={`Filter by ${props.name}`} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value || null)}>
        <option value="">{props.any}</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
