// The one select of the admin window: the browser's control drawn like the inputs beside it
// (styles/components/controls.css .select), with its choices as value and label.

export interface Choice {
  value: string;
  label: string;
}

export function Select({
  id,
  label,
  value,
  choices,
  onChange,
  small = false,
  disabled = false,
}: {
  id?: string;
  /** Its accessible name when no <label> points at it (a select in a table row). */
  label?: string;
  value: string;
  choices: readonly (Choice | string)[];
  onChange: (value: string) => void;
  small?: boolean;
  disabled?: boolean;
}) {
  return (
    <select
      id={id}
      className={small ? 'select small' : 'select'}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    >
      {choices.map((choice) => {
        const { value: option, label: text } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
        return (
          <option key={option} value={option}>
            {text}
          </option>
        );
      })}
    </select>
  );
}
