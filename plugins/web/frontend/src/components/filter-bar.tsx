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
          // Enter applies it even beside other fields (a form with two text fields and no
          // button does not submit on Enter).
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              onBranch(input.trim() || null);
            }
          }}
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

/** A free-text filter applied on Enter (the form's submit) or when cleared. */
export function SearchFilter(props: { label: string; value: string; placeholder: string; onChange: (value: string | null) => void }) {
  const [input, setInput] = useState(props.value);
  return (
    <label class="filter">
      <span>{props.label}</span>
      <input
        type="search"
        value={input}
        placeholder={props.placeholder}
        aria-label={props.label}
        onInput={(e) => {
          const value = (e.target as HTMLInputElement).value;
          setInput(value);
          if (!value) props.onChange(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            props.onChange(input.trim() || null);
          }
        }}
      />
    </label>
  );
}
