// A file input that looks like the other buttons: the native control stays in the page (it is what
// the keyboard, screen readers and tests drive) but is hidden, and its label is the button.

import type { ChangeEvent, Ref } from 'react';

export function FilePicker({
  id,
  label,
  chosen,
  accept,
  multiple = false,
  disabled = false,
  inputRef,
  testId,
  onChange,
}: {
  id: string;
  label: string;
  /** What is chosen, shown beside the button ("No file chosen" when nothing). */
  chosen?: string;
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  testId?: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <span className="file-picker">
      <input
        id={id}
        ref={inputRef}
        className="sr-only"
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        data-testid={testId}
        onChange={onChange}
      />
      <label htmlFor={id} className={disabled ? 'button small disabled' : 'button small'}>
        {label}
      </label>
      <span className="muted small file-picker-chosen">{chosen ?? 'No file chosen'}</span>
    </span>
  );
}
