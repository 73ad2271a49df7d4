// Template syntax: turns template HTML into a small tree of text, placeholders and sections, so
// that every syntax error is found once, when the template is saved, with its line and column.
// Knows nothing of data or output; render/template.ts expands the tree.
//
// The language (docs/api.md#placeholders: the placeholder rules plus sections as an extension):
//   {{path}}  escaped value    {{{path}}}  raw value    {{.}}  the current item
//   {{#path}}...{{/path}}  repeat for each item of a list, or show once when the value is truthy
//   {{^path}}...{{/path}}  show when the value is missing, false, 0, "" or an empty list
//   {{! comment }}         dropped
// A path is names joined by dots (letters, digits, _, - or $). Partials and delimiter changes
// are not supported, and an unclosed "{{" is an error rather than text.

export type TemplatePath = readonly string[];

export type TemplateNode =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'value'; readonly path: TemplatePath; readonly escape: boolean }
  | { readonly type: 'section'; readonly path: TemplatePath; readonly inverted: boolean; readonly children: readonly TemplateNode[] };

/** Sections nested deeper than this are refused at parse time; it also bounds render recursion. */
export const MAX_SECTION_DEPTH = 32;

/** A template that cannot be parsed; line and column are 1-based and point at the offending tag. */
export class TemplateSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'TemplateSyntaxError';
  }
}

const NAME = /^[\p{L}\p{N}_$-]+$/u;

interface OpenSection {
  name: string;
  path: TemplatePath;
  inverted: boolean;
  offset: number;
  children: TemplateNode[];
}

/** Parses template HTML into its node tree; throws TemplateSyntaxError naming where. */
export function parseTemplate(source: string): TemplateNode[] {
  const root: TemplateNode[] = [];
  const open: OpenSection[] = [];
  const fail = (offset: number, reason: string): never => {
    const { line, column } = positionOf(source, offset);
    throw new TemplateSyntaxError(line, column, reason);
  };
  const current = () => open.at(-1)?.children ?? root;
  const addText = (text: string) => {
    if (text === '') return;
    const siblings = current();
    const last = siblings.at(-1);
    if (last?.type === 'text') siblings[siblings.length - 1] = { type: 'text', text: last.text + text };
    else siblings.push({ type: 'text', text });
  };

  let position = 0;
  for (;;) {
    const start = source.indexOf('{{', position);
    if (start === -1) break;
    addText(source.slice(position, start));
    if (source.startsWith('{{{', start)) {
      const end = source.indexOf('}}}', start + 3);
      if (end === -1) fail(start, 'a {{{ is never closed with }}}');
      const path = parsePath(source.slice(start + 3, end), start, fail);
      current().push({ type: 'value', path, escape: false });
      position = end + 3;
      continue;
    }
    const end = source.indexOf('}}', start + 2);
    if (end === -1) fail(start, 'a {{ is never closed with }}');
    const content = source.slice(start + 2, end);
    position = end + 2;
    const sigil = content.trimStart().charAt(0);
    const rest = content.trimStart().slice(1);
    switch (sigil) {
      case '!':
        break;
      case '#':
      case '^': {
        if (open.length >= MAX_SECTION_DEPTH) fail(start, `sections are nested more than ${MAX_SECTION_DEPTH} deep`);
        const path = parsePath(rest, start, fail);
        open.push({ name: nameOf(path), path, inverted: sigil === '^', offset: start, children: [] });
        break;
      }
      case '/': {
        const path = parsePath(rest, start, fail);
        const section = open.pop();
        if (!section) fail(start, `{{/${nameOf(path)}}} closes a section that was never opened`);
        if (section!.name !== nameOf(path)) {
          const opened = positionOf(source, section!.offset);
          fail(
            start,
            `{{/${nameOf(path)}}} does not match {{${section!.inverted ? '^' : '#'}${section!.name}}} opened at line ${opened.line}, column ${opened.column}`,
          );
        }
        current().push({ type: 'section', path: section!.path, inverted: section!.inverted, children: section!.children });
        break;
      }
      case '>':
        fail(start, 'partials ({{>name}}) are not supported');
        break;
      case '=':
        fail(start, 'changing delimiters ({{=<% %>=}}) is not supported');
        break;
      case '&':
        fail(start, 'use {{{name}}} to insert a value without escaping');
        break;
      default:
        current().push({ type: 'value', path: parsePath(content, start, fail), escape: true });
    }
  }
  addText(source.slice(position));
  const unclosed = open.at(-1);
  if (unclosed) fail(unclosed.offset, `{{${unclosed.inverted ? '^' : '#'}${unclosed.name}}} is never closed with {{/${unclosed.name}}}`);
  return root;
}

function parsePath(raw: string, offset: number, fail: (offset: number, reason: string) => never): TemplatePath {
  const text = raw.trim();
  if (text === '') return fail(offset, 'a placeholder needs a name, as in {{customer.name}}');
  if (text === '.') return [];
  const segments = text.split('.');
  if (!segments.every((segment) => NAME.test(segment))) {
    return fail(offset, `{{${raw}}} is not a valid placeholder: a path is names (letters, digits, _, - or $) joined by dots, as in {{customer.name}}`);
  }
  return segments;
}

function nameOf(path: TemplatePath): string {
  return path.length === 0 ? '.' : path.join('.');
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
