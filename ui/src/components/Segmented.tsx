// A few mutually exclusive choices drawn as one segmented control (radio inputs inside labels, so
// the keyboard and screen readers treat it as a radio group).

export function Segmented<T extends string>({
  name,
  label,
  className,
  value,
  choices,
  labels,
  onChange,
}: {
  /** The radio inputs' name. */
  name: string;
  label: string;
  className?: string;
  value: T;
  choices: readonly T[];
  labels: Record<T, string>;
  onChange: (next: T) => void;
}) {
  return (
    <div className={className ? `segmented ${className}` : 'segmented'} role="radiogroup" aria-label={label}>
      {choices.map((item) => (
        <label key={item} className={value === item ? 'segment active' : 'segment'}>
          <input type="radio" name={name} value={item} checked={value === item} onChange={() => onChange(item)} />
          {labels[item]}
        </label>
      ))}
    </div>
  );
}
