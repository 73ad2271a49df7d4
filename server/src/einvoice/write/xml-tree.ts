// A tiny element tree for the writers: children given in schema order, absent values dropped, and
// a container with nothing in it left out, so a writer reads as the schema's sequence. Text and
// attribute values are escaped here, once; nothing else in the writers builds markup.

export interface XmlElement {
  name: string;
  attributes: Record<string, string | undefined>;
  children: XmlElement[];
  text?: string;
}

export type Child = XmlElement | undefined | false | Child[];

function flatten(children: Child[]): XmlElement[] {
  return children.flatMap((child) => (Array.isArray(child) ? flatten(child) : child ? [child] : []));
}

/** An element holding `value`, or undefined when there is no value (the term is not given). */
export function leaf(name: string, value: string | undefined, attributes: Record<string, string | undefined> = {}): XmlElement | undefined {
  return value === undefined ? undefined : { name, attributes, children: [], text: value };
}

/** A container; undefined when none of its children is present. */
export function group(name: string, ...children: Child[]): XmlElement | undefined {
  const present = flatten(children);
  return present.length === 0 ? undefined : { name, attributes: {}, children: present };
}

/** A container written even when empty (a schema-mandatory aggregate such as CII's header delivery). */
export function always(name: string, attributes: Record<string, string | undefined>, ...children: Child[]): XmlElement {
  return { name, attributes, children: flatten(children) };
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** Escapes XML markup characters, and drops characters XML 1.0 cannot carry at all. */
export function escapeXml(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"\r]/g, (char) => TEXT_ESCAPES[char]!);
}

function serialize(element: XmlElement, out: string[]): void {
  const attributes = Object.entries(element.attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(value!)}"`)
    .join('');
  if (element.text !== undefined) out.push(`<${element.name}${attributes}>${escapeXml(element.text)}</${element.name}>`);
  else if (element.children.length === 0) out.push(`<${element.name}${attributes}/>`);
  else {
    out.push(`<${element.name}${attributes}>`);
    for (const child of element.children) serialize(child, out);
    out.push(`</${element.name}>`);
  }
}

/** The document as UTF-8 XML text with its declaration. */
export function toXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  serialize(root, out);
  return `${out.join('')}\n`;
}
