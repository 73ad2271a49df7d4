// The large drop-or-pick box of the screens that read one file (the office playground, the
// E-invoices screen), written once: drag a file onto it or press it to pick one; it shows what is
// chosen and a hint of what it takes. The native input stays in the page (keyboard, tests) but hidden.

import { useState } from 'react';
import { formatBytes } from '../lib/format.ts';

export function FileDropZone({
  file,
  accept,
  prompt,
  hint,
  label,
  testId,
  onFile,
}: {
  /** The chosen file, named with its size in place of the prompt. */
  file: File | null | undefined;
  accept: string;
  /** What the box says while nothing is chosen ("Drop a file here"). */
  prompt: string;
  hint: string;
  /** The input's accessible name; without it, the box's text names it. */
  label?: string;
  testId: string;
  /** A file dropped or picked (never called with none). */
  onFile: (file: File) => void;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    <label
      className={dragging ? 'drop-zone dragging' : 'drop-zone'}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        const dropped = event.dataTransfer.files[0];
        if (dropped) onFile(dropped);
      }}
    >
      <input
        className="sr-only"
        type="file"
        accept={accept}
        aria-label={label}
        data-testid={testId}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          if (picked) onFile(picked);
          // Emptied so that picking the same file again is a change too (read again).
          event.target.value = '';
        }}
      />
      <span className="strong">{file ? `${file.name} · ${formatBytes(file.size)}` : prompt}</span>
      <span className="button small">{file ? 'Choose another file…' : 'Choose a file…'}</span>
      <span className="hint">{hint}</span>
    </label>
  );
}
