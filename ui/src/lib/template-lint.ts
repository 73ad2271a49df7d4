// What the template editor marks and offers as you type: placeholder tags with their positions,
// syntax errors found by the server's own parser (so the editor and a save agree), placeholders
// the sample data lacks (sections scope names as renders do), data paths to complete, and where
// the sample data's JSON breaks.

import { parseTemplate, TemplateSyntaxError } from '../../../server/src/render/template-syntax.ts';

export interface Problem {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface Tag {
  from: number;
  to: number;
  /** "" value, "{" raw value, "#" section, "^" inverted section, "/" close, "!" comment. */
  kind: '' | '{' | '#' | '^' | '/' | '!';
  path: string;
}

/** Every {{...}} tag of the template, in order. */
export const TAG_PATTERN = /\{\{(\{|[#^/!])?\s*([^{}]*?)\s*\}?\}\}/g;

export function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(TAG_PATTERN)) {
    tags.push({ from: match.index, to: match.index + match[0].length, kind: (match[1] ?? '') as Tag['kind'], path: match[2] ?? '' });
  }
  return tags;
}

/** Syntax errors (as a save would report them) and placeholders the sample data has no value for. */
export function templateProblems(html: string, sample: Record<string, unknown> | null): Problem[] {
  const syntax = syntaxProblem(html);
  if (syntax) return [syntax];
  if (!sample) return [];
  const problems: Problem[] = [];
  // Innermost first: inside a section over a list, names resolve in the list's first item, then outside.
  const scopes: unknown[] = [sample];
  for (const tag of tagsOf(html)) {
    if (tag.kind === '!') continue;
    if (tag.kind === '/') {
      // The innermost scope is the first: closing a section drops it, never the sample data at the end.
      if (scopes.length > 1) scopes.shift();
      continue;
    }
    const value = tag.path === '.' ? scopes[0] : lookup(scopes, tag.path);
    // {{^path}} is written for the value being missing, so only the other tags are marked.
    if (value === undefined && tag.path !== '.' && tag.kind !== '^') {
      problems.push({
        from: tag.from,
        to: tag.to,
        severity: 'warning',
        message: `The sample data has no ${tag.path}: this renders empty (or the section is skipped).`,
      });
    }
    if (tag.kind === '#') scopes.unshift(Array.isArray(value) ? value[0] : value);
    else if (tag.kind === '^') scopes.unshift(scopes[0]);
  }
  return problems;
}

function syntaxProblem(html: string): Problem | undefined {
  try {
    parseTemplate(html);
    return undefined;
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError)) throw error;
    const from = offsetOf(html, error.line, error.column);
    const close = html.indexOf('}}', from);
    return { from, to: close < 0 ? Math.min(html.length, from + 2) : close + 2, severity: 'error', message: error.reason };
  }
}

function lookup(scopes: unknown[], path: string): unknown {
  const [first, ...rest] = path.split('.');
  const scope = scopes.find((candidate) => isObject(candidate) && Object.hasOwn(candidate, first!));
  let value: unknown = scope === undefined ? undefined : (scope as Record<string, unknown>)[first!];
  for (const name of rest) value = isObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every dotted path into the sample data, and the fields of list items (used inside their sections). */
export function dataPaths(sample: Record<string, unknown> | null): string[] {
  const paths = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (depth > 8) return;
    if (Array.isArray(value)) {
      if (isObject(value[0])) walk(value[0], '', depth + 1);
      return;
    }
    if (!isObject(value)) return;
    for (const [name, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${name}` : name;
      paths.add(path);
      walk(child, path, depth + 1);
    }
  };
  walk(sample, '', 0);
  return [...paths].sort();
}

export type ParsedData = { ok: true; value: Record<string, unknown> | null } | { ok: false; error: string; at: number };

/** A data box (the studio's sample data, the office playground's data): empty is no data; otherwise a JSON object, or where it breaks. */
export function parseSampleData(text: string, what = 'Sample data'): ParsedData {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, error: `${what} must be a JSON object, such as {"name": "Ada"}.`, at: 0 };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const lineColumn = /line (\d+) column (\d+)/.exec(message);
    const at = position ? Number(position[1]) : lineColumn ? offsetOf(text, Number(lineColumn[1]), Number(lineColumn[2])) : text.length;
    return { ok: false, error: `Not valid JSON: ${message}`, at: Math.min(at, text.length) };
  }
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + column - 1);
}
