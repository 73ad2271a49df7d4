// The code editors' syntax colours: CodeMirror's default style with the three colours that fall
// under 4.5:1 on the active line (#085 tags, #e40 special strings, #f00 invalid) made darker, so
// the studio and the playground pass the axe audit (tests/e2e/a11y-screens.spec.ts).

import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';

const DARKER: Record<string, string> = { '#085': '#064', '#e40': '#b30', '#f00': '#c00' };

/** Replaces basicSetup's fallback highlighting (a non-fallback highlighter wins over it). */
export const readableHighlighting = syntaxHighlighting(
  HighlightStyle.define(
    defaultHighlightStyle.specs.map((spec) => (typeof spec.color === 'string' && DARKER[spec.color] ? { ...spec, color: DARKER[spec.color] } : spec)),
  ),
);
