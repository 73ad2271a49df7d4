// The JSON data editor of the template studio and the office playground, written once: a code
// editor with the sample-data marks and completion (lib/template-editing.ts), flagged while invalid.

import { useMemo } from 'react';
import { sampleDataExtensions } from '../lib/template-editing.ts';
import { CodeEditor } from './CodeEditor.tsx';

export function SampleDataEditor({
  value,
  onChange,
  label,
  invalid,
  errorId,
}: {
  value: string;
  onChange: (next: string) => void;
  label: string;
  invalid: boolean;
  /** The id of the element that says what is wrong. */
  errorId: string;
}) {
  const extensions = useMemo(() => sampleDataExtensions(), []);
  return <CodeEditor value={value} onChange={onChange} language="json" label={label} extensions={extensions} invalid={invalid} describedBy={errorId} />;
}
