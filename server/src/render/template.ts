// Template expansion: one pass over a parsed template (render/template-syntax.ts) with plain JSON
// data. Inserted values are never scanned again, so data cannot add placeholders. Lookups go
// through own properties only, so __proto__, constructor and the like resolve to nothing, and
// nothing is ever written to the data. Work and output are bounded: expansion stops at the
// output ceiling, or after a fixed number of steps (nested loops over big lists), instead of
// building a huge string or spinning. Knows nothing of keys, storage or HTTP.

import { parseTemplate, type TemplateNode, type TemplatePath } from './template-syntax.ts';

export { TemplateSyntaxError, MAX_SECTION_DEPTH } from './template-syntax.ts';

/** A parsed template, ready to expand any number of times. */
export interface CompiledTemplate {
  readonly nodes: readonly TemplateNode[];
}

export interface ExpandLimits {
  /** Stop once the output is longer than this many UTF-16 code units (a UTF-8 byte ceiling is never below it). */
  maxOutputLength: number;
  /** Stop after this many nodes and list items visited. */
  maxSteps: number;
}

/**
 * Default step budget, and with it the time budget (issue 11): expansion runs synchronously on
 * the event loop every tenant shares, so its worst case must stay short. The worst case within
 * this budget (nested loops that print little) took ~50 ms on a 2-core machine (5 million steps
 * took ~250 ms; docs/decisions.md#a-template-engine-of-our-own); a 10,000-row table takes about
 * 50,000 steps.
 * A count, not a clock: the same template is never refused because the machine is busy.
 */
export const MAX_EXPAND_STEPS = 1_000_000;

/** Expansion went past one of its limits; `limit` says which. */
export class TemplateLimitError extends Error {
  constructor(
    readonly limit: 'output' | 'steps',
    readonly bound: number,
  ) {
    super(limit === 'output' ? `the expanded template is longer than ${bound} characters` : `expanding the template takes more than ${bound} steps`);
    this.name = 'TemplateLimitError';
  }
}

/** Parses template HTML once; throws TemplateSyntaxError with line and column. */
export function compileTemplate(html: string): CompiledTemplate {
  return { nodes: parseTemplate(html) };
}

/**
 * Expands a compiled template with data in a single pass; throws TemplateLimitError past a limit.
 * `escapeValue` makes a {{value}} safe where it lands (HTML by default; a Markdown template's differs).
 */
export function expandTemplate(template: CompiledTemplate, data: unknown, limits: ExpandLimits, escapeValue: (text: string) => string = escapeHtml): string {
  const parts: string[] = [];
  let length = 0;
  let steps = 0;
  const emit = (text: string) => {
    if (text === '') return;
    length += text.length;
    if (length > limits.maxOutputLength) throw new TemplateLimitError('output', limits.maxOutputLength);
    parts.push(text);
  };
  const step = () => {
    if (++steps > limits.maxSteps) throw new TemplateLimitError('steps', limits.maxSteps);
  };
  // The context stack: the data, then the item of each section entered. Its depth is bounded by
  // the template's section depth (MAX_SECTION_DEPTH), never by the data.
  const walk = (nodes: readonly TemplateNode[], stack: unknown[]): void => {
    for (const node of nodes) {
      step();
      if (node.type === 'text') {
        emit(node.text);
      } else if (node.type === 'value') {
        const text = textOf(lookup(stack, node.path));
        emit(node.escape ? escapeValue(text) : text);
      } else {
        const value = lookup(stack, node.path);
        if (node.inverted) {
          if (isFalsy(value)) walk(node.children, stack);
        } else if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            step();
            stack.push(value[i]);
            walk(node.children, stack);
            stack.pop();
          }
        } else if (!isFalsy(value)) {
          stack.push(value);
          walk(node.children, stack);
          stack.pop();
        }
      }
    }
  };
  walk(template.nodes, [data]);
  return parts.join('');
}

/**
 * Resolves a path against the context stack: the first name is looked up from the innermost
 * context outwards (so a section item can still reach top-level data), the rest inside it.
 * Own properties only; anything not found is undefined.
 */
function lookup(stack: readonly unknown[], path: TemplatePath): unknown {
  if (path.length === 0) return stack[stack.length - 1];
  const [first, ...rest] = path as [string, ...string[]];
  for (let i = stack.length - 1; i >= 0; i--) {
    const context = stack[i];
    if (isContainer(context) && Object.hasOwn(context, first)) {
      let value: unknown = (context as Record<string, unknown>)[first];
      for (const name of rest) {
        if (!isContainer(value) || !Object.hasOwn(value, name)) return undefined;
        value = (value as Record<string, unknown>)[name];
      }
      return value;
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Mustache's notion of false: missing, null, false, 0, NaN, "" and the empty list. */
function isFalsy(value: unknown): boolean {
  return !value || (Array.isArray(value) && value.length === 0);
}

/** Strings, numbers and booleans print; anything else (missing, null, objects, lists) prints nothing. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the five characters that matter in HTML text and quoted attributes. */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!) : text;
}
