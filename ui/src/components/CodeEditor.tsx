// A CodeMirror 6 editor as a controlled React input: HTML (with CSS inside <style>), Markdown or JSON
// highlighting, plus whatever extensions the page adds (placeholder marks, completion, lint).
// Its editable area is a textbox named by `label`, so it is found and filled like a textarea.

import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { EditorState, type Extension } from '@codemirror/state';
import { html } from '@codemirror/lang-html';
import { json } from '@codemirror/lang-json';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { readableHighlighting } from './code-highlight.ts';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Fixed for the editor's life: give the component a key per language to switch. */
  language: 'html' | 'markdown' | 'json';
  label: string;
  /** Fixed for the editor's life; read changing inputs (sample data) through refs. */
  extensions?: Extension[];
  invalid?: boolean;
  describedBy?: string;
  /** Called with the view once it exists (to re-run lint when something outside the text changes). */
  onView?: (view: EditorView) => void;
}

export function CodeEditor({ value, onChange, language, label, extensions = [], invalid = false, describedBy, onView }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once; later values arrive through the effect below, and the other props are fixed for its life
  useEffect(() => {
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          readableHighlighting,
          language === 'html' ? html() : language === 'markdown' ? markdown({ base: markdownLanguage }) : json(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            spellcheck: 'false',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          ...extensions,
        ],
      }),
    });
    view.current = created;
    onView?.(created);
    return () => created.destroy();
  }, []);

  // A value set from outside (a restore, a reload) replaces the text; typing round-trips unchanged.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className={`code-editor${invalid ? ' invalid' : ''}`} data-language={language} />;
}
