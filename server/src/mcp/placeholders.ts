// The placeholders a template's text uses, for get_template: what data render_template needs.
// Read from the same parse tree the renderer expands (render/template-syntax.ts).

import { parseTemplate, type TemplateNode } from '../render/template-syntax.ts';

export interface Placeholder {
  /** The dotted path; inside a section, relative to its items first. */
  path: string;
  kind: 'value' | 'raw' | 'section' | 'inverted';
  /** The sections it sits in, outermost first (their items are looked up first). */
  within?: string[];
}

/** Each distinct placeholder once, in the order of first use; [] for a text that does not parse. */
export function placeholdersOf(text: string): Placeholder[] {
  let nodes: TemplateNode[];
  try {
    nodes = parseTemplate(text);
  } catch {
    return [];
  }
  const found = new Map<string, Placeholder>();
  const walk = (list: readonly TemplateNode[], within: string[]) => {
    for (const node of list) {
      if (node.type === 'text') continue;
      const path = node.path.join('.') || '.';
      const kind = node.type === 'value' ? (node.escape ? 'value' : 'raw') : node.inverted ? 'inverted' : 'section';
      const key = `${within.join('/')}|${path}|${kind}`;
      if (!found.has(key)) found.set(key, { path, kind, ...(within.length ? { within: [...within] } : {}) });
      if (node.type === 'section') walk(node.children, [...within, path]);
    }
  };
  walk(nodes, []);
  return [...found.values()];
}
