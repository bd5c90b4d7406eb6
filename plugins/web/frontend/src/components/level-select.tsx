// A person's role in a team or level on a project: a menu for those who may change it, its
// name for everyone else.
interface Props<Level extends string> {
  /** The menu's accessible name ("Role of Ada"). */
  label: string;
  value: Level;
  options: readonly (readonly [Level, string])[];
  editable: boolean;
  onChange: (level: Level) => void;
}

export function LevelSelect<Level extends string>({ label, value, options, editable, onChange }: Props<Level>) {
  if (!editable) return <>{options.find(([option]) => option === value)?.[1] ?? value}</>;
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Level)}>
      {options.map(([option, text]) => (
        <option key={option} value={option}>{text}</option>
      ))}
    </select>
  );
}
