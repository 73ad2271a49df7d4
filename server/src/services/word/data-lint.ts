// The data lint of a Word template, as the studio's for HTML templates: which placeholders the
// data has no value for (they print empty, a section is skipped) and which data no placeholder
// uses. Names resolve as fill.ts does: in the innermost loop's item first, then outwards;
// a loop's names are checked against its first item. Paths are written items[].price. Pure (no
// library): the studio runs it in the browser as the sample data is edited.

import type { WordPlaceholder } from './template.ts';

export interface DataLint {
  /** Placeholders the data has no value for. */
  missing: string[];
  /** Data paths no placeholder prints or opens. */
  unused: string[];
}

interface Scope {
  /** The data path of this scope ("" for the top, "items[]" inside a loop over items). */
  path: string;
  value: unknown;
}

/** Lints data (the sample data, or a render's) against a Word template's placeholders. */
export function lintWordData(placeholders: WordPlaceholder[], data: unknown): DataLint {
  const missing: string[] = [];
  const printed = new Set<string>();
  const opened = new Set<string>();
  const walk = (nodes: WordPlaceholder[], scopes: Scope[]) => {
    for (const node of nodes) {
      const found = resolve(scopes, node.name);
      if (!found) {
        const where = scopes[0]!.path;
        missing.push(where === '' ? node.name : `${where}.${node.name}`);
        if (node.children) walk(node.children, scopes);
        continue;
      }
      if (node.kind === 'value') {
        printed.add(found.path);
        continue;
      }
      opened.add(found.path);
      if (Array.isArray(found.value)) walk(node.children ?? [], [{ path: `${found.path}[]`, value: found.value[0] }, ...scopes]);
      else if (typeof found.value === 'object' && found.value !== null) walk(node.children ?? [], [{ path: found.path, value: found.value }, ...scopes]);
      else walk(node.children ?? [], scopes);
    }
  };
  walk(placeholders, [{ path: '', value: data }]);
  const used = (path: string) => opened.has(path) || [...printed].some((done) => path === done || path.startsWith(`${done}.`) || path.startsWith(`${done}[]`));
  const unused = leafPaths(data, '').filter((path) => !used(path));
  return { missing: [...new Set(missing)], unused };
}

function resolve(scopes: Scope[], name: string): Scope | undefined {
  const parts = name.split('.');
  for (const scope of scopes) {
    let value = scope.value;
    for (const part of parts)
      value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[part] : undefined;
    if (value !== undefined) return { path: scope.path === '' ? name : `${scope.path}.${name}`, value };
  }
  return undefined;
}

/** Every value's path in the data (a list's items merged as list[]; an image, an empty list or object counts as one value). */
function leafPaths(value: unknown, path: string): string[] {
  if (Array.isArray(value)) {
    const inner = [...new Set(value.flatMap((item) => leafPaths(item, `${path}[]`)))];
    return inner.length > 0 ? inner : [path];
  }
  if (typeof value === 'object' && value !== null && typeof (value as { image?: unknown }).image !== 'string') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return path === '' ? [] : [path];
    return entries.flatMap(([key, item]) => leafPaths(item, path === '' ? key : `${path}.${key}`));
  }
  return path === '' ? [] : [path];
}
