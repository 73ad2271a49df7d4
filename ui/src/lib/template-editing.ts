// CodeMirror extensions for template HTML and its sample data: placeholder tags highlighted,
// data paths completed after "{{", lint marks (syntax errors, placeholders the sample data
// lacks, accessibility warnings on the HTML) and, for the data box, where its JSON breaks. The sample data is read through a getter
// so the extensions stay fixed while it changes.

import { Decoration, type EditorView, MatchDecorator, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import type { Extension } from '@codemirror/state';
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import { dataPaths, parseSampleData, TAG_PATTERN, templateProblems } from './template-lint.ts';
import { htmlProblems } from './template-a11y-lint.ts';

type Sample = () => Record<string, unknown> | null;

const placeholderMarks = new MatchDecorator({
  regexp: new RegExp(TAG_PATTERN.source, 'g'),
  decoration: (match) =>
    Decoration.mark({ class: match[1] && '#^/'.includes(match[1]) ? 'cm-template-section' : match[1] === '!' ? 'cm-template-comment' : 'cm-template-value' }),
});

const highlightPlaceholders = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = placeholderMarks.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = placeholderMarks.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

function completePaths(sample: Sample) {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(/\{\{\{?[#^/]?\s*[\p{L}\p{N}_$.-]*$/u);
    if (!before) return null;
    const typed = /[\p{L}\p{N}_$.-]*$/u.exec(before.text)![0];
    // A tag not closed yet gets its closing braces with the path (three for a raw {{{value}}}).
    const close = before.text.startsWith('{{{') ? '}}}' : '}}';
    const closed = context.state.sliceDoc(context.pos, context.pos + close.length) === close;
    return {
      from: before.to - typed.length,
      options: dataPaths(sample()).map((path) => ({ label: path, type: 'variable', apply: closed ? path : path + close })),
      validFor: /^[\p{L}\p{N}_$.-]*$/u,
    };
  };
}

/** Extensions for the template's HTML. */
export function templateExtensions(sample: Sample): Extension[] {
  return [
    highlightPlaceholders,
    autocompletion({ override: [completePaths(sample)], activateOnTyping: true }),
    linter(
      (view) => {
        const html = view.state.doc.toString();
        return [...templateProblems(html, sample()), ...htmlProblems(html)] as Diagnostic[];
      },
      { delay: 300 },
    ),
  ];
}

/** Extensions for the sample data box: a mark where the JSON breaks. */
export function sampleDataExtensions(): Extension[] {
  return [
    linter(
      (view) => {
        const text = view.state.doc.toString();
        const parsed = parseSampleData(text);
        if (parsed.ok) return [];
        return [{ from: parsed.at, to: Math.min(text.length, parsed.at + 1), severity: 'error', message: parsed.error }];
      },
      { delay: 200 },
    ),
  ];
}
