// The sample-data pane of both template editors (HTML/Markdown and Word), written once: the JSON
// in a code editor, flagged while invalid, with the parse error under it. The pane's head carries
// each editor's own control (the HTML editor's validity note, the Word editor's save button).

import { type ReactNode, useId } from 'react';
import type { ParsedData } from '../../lib/template-lint.ts';
import { SampleDataEditor } from '../../components/SampleDataEditor.tsx';

export function SampleDataPane({
  text,
  onText,
  data,
  children,
}: {
  text: string;
  onText: (next: string) => void;
  /** `text` parsed (parseSampleData): the error shown and the editor flagged while it is not ok. */
  data: ParsedData;
  /** The control at the right of the pane's head. */
  children?: ReactNode;
}) {
  const errorId = useId();
  return (
    <section className="editor-pane data-pane" aria-label="Sample data">
      <div className="pane-head">
        <span>Sample data (JSON)</span>
        {children}
      </div>
      <SampleDataEditor value={text} onChange={onText} label="Sample data (JSON)" invalid={!data.ok} errorId={errorId} />
      {!data.ok && (
        <p id={errorId} className="error-text small" role="alert">
          {data.error}
        </p>
      )}
    </section>
  );
}
