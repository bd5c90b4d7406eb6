import type { ComponentChildren } from "preact";

/** A list of rows under column headings, in the builds list's style. */
export function ListTable({ columns, busy = false, extraClass = "", children }: { columns: string[]; busy?: boolean; extraClass?: string; children: ComponentChildren }) {
  return (
    <table class={`builds-table ${extraClass}`.trim()} aria-busy={busy}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
