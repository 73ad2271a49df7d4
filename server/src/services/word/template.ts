// Word (docx) templates read with easy-template-x (docs/decisions.md, "Word templates:
// easy-template-x"): the file is checked as an office upload is (type, bytes, zip bomb), its tags
// must pair up ({#list}…{/list}, a stray brace is refused naming it), and the tags become the
// placeholder tree GET /v1/templates/{id} shows. Filling is fill.ts; the data lint data-lint.ts.

import { TemplateHandler, TemplateSyntaxError, type Tag, type XmlNode } from 'easy-template-x';
import { ApiError } from '../../errors.ts';
import { OfficeConversionError } from '../../office/errors.ts';
import { checkOfficeFile } from '../../office/file-kinds.ts';
import { lintWordData, type DataLint } from './data-lint.ts';

/** A tag of a Word template: a value ({name}) or a section ({#name}…{/name}: a loop over a list, or a condition) with what is inside it. */
export interface WordPlaceholder {
  name: string;
  kind: 'value' | 'section';
  children?: WordPlaceholder[];
}

/** The largest docx a template may be (its bytes are kept with every version; a request body of 6 MB carries 4.5 MB base64). */
export const MAX_WORD_TEMPLATE_BYTES = 4 * 1024 * 1024;

const handler = new TemplateHandler();

/** The docx bytes of a stored Word template (kept base64 in the template's text). */
export function wordBytesOf(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

/**
 * Checks a Word template's bytes (base64) and returns its placeholders: 400 when the file is not a
 * docx, damaged, a likely zip bomb, or when a tag does not parse (naming the tag); 413 over 10 MB.
 */
export async function parseWordTemplate(base64: string, field = 'file'): Promise<WordPlaceholder[]> {
  const bytes = wordBytesOf(base64);
  if (bytes.byteLength > MAX_WORD_TEMPLATE_BYTES)
    throw new ApiError('payload_too_large', `${field} is larger than the ${MAX_WORD_TEMPLATE_BYTES / 1024 / 1024} MB limit for a Word template.`);
  try {
    checkOfficeFile('template.docx', bytes);
  } catch (error) {
    if (error instanceof OfficeConversionError) throw new ApiError('invalid_request', `${field}: ${error.message.replace('"template.docx"', 'the template')}.`);
    throw error;
  }
  // A zip's directory names its parts in plain bytes: a Word file has word/document.xml (an xlsx or odt is another zip).
  if (!bytes.includes('word/document.xml')) throw new ApiError('invalid_request', `${field} is not a Word (docx) file: it has no word/document.xml.`);
  let tags: Tag[];
  let text: string;
  try {
    [tags, text] = await Promise.all([handler.parseTags(bytes), handler.getText(bytes)]);
  } catch (error) {
    throw new ApiError('invalid_request', `${field} is not a Word template we can read: ${(error as Error).message}`);
  }
  checkStrayBraces(text, tags, field);
  return treeOf(tags, field);
}

/** The tags as a tree: sections hold the tags between their open and close tag; a close must match its open. */
function treeOf(tags: Tag[], field: string): WordPlaceholder[] {
  const root: WordPlaceholder[] = [];
  const open: { tag: Tag; node: WordPlaceholder }[] = [];
  const here = () => open.at(-1)?.node.children ?? root;
  for (const tag of tags) {
    if (tag.disposition === 'Open') {
      const node: WordPlaceholder = { name: tag.name, kind: 'section', children: [] };
      here().push(node);
      open.push({ tag, node });
    } else if (tag.disposition === 'Close') {
      const last = open.pop();
      if (!last) throw syntax(field, `the tag ${tag.rawText} closes a section that was never opened`);
      // easy-template-x lets {/} or any name close; Quire asks for the open tag's name (or none) so a mix-up is caught.
      if (tag.name !== '' && tag.name !== last.tag.name)
        throw syntax(field, `the tag ${tag.rawText} closes ${last.tag.rawText}: close it with {/${last.tag.name}}`);
    } else if (!here().some((node) => node.kind === 'value' && node.name === tag.name)) {
      here().push({ name: tag.name, kind: 'value' });
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) throw syntax(field, `the tag ${unclosed.tag.rawText} is never closed: add {/${unclosed.tag.name}}`);
  return merged(root);
}

/** A section used twice (a loop split around a table) shows once, with the tags of both. */
function merged(nodes: WordPlaceholder[]): WordPlaceholder[] {
  const out: WordPlaceholder[] = [];
  for (const node of nodes) {
    const same = out.find((other) => other.kind === node.kind && other.name === node.name);
    if (!same) out.push(node.children ? { ...node, children: merged(node.children) } : node);
    else if (same.children && node.children) same.children = merged([...same.children, ...node.children]);
  }
  return out;
}

/** A { or } left in the text once every tag is taken out is a tag that does not parse (easy-template-x would print it as it is). */
function checkStrayBraces(text: string, tags: Tag[], field: string): void {
  let rest = text;
  for (const tag of tags) rest = rest.replace(tag.rawText, ' ');
  const at = rest.search(/[{}]/);
  if (at < 0) return;
  const near = rest.slice(Math.max(0, at - 15), at + 25).trim();
  throw syntax(field, `a ${rest[at]} that is not part of a tag, near "${near}": a tag is {name}, {#list}…{/list} or a condition {#flag}…{/flag}`);
}

function syntax(field: string, reason: string): ApiError {
  return new ApiError('invalid_request', `${field} has a template syntax error: ${reason}.`);
}

/** easy-template-x's own syntax errors (met while filling) as a 400 naming the tag. */
export function wordSyntaxError(error: unknown, field = 'template'): unknown {
  return error instanceof TemplateSyntaxError ? syntax(field, error.message.replace(/\.$/, '')) : error;
}

/** Merges, images and the playground render HTML; a Word template goes through LibreOffice on POST /v1/pdf (and batches) only. */
export function wordTemplateElsewhere(id: string): ApiError {
  return new ApiError('invalid_request', `Template ${id} is a Word template: render it with POST /v1/pdf (template_id and data).`);
}

/** A Word template's text with its tags, paragraph by paragraph (what a version diff compares; the bytes would differ on every save). */
export async function wordTextOf(base64: string): Promise<string> {
  const xml = await handler.getXml(wordBytesOf(base64));
  const paragraphs: string[] = [];
  const walk = (node: XmlNode, into: string[]): void => {
    if (node.nodeType === 'Text') into.push(node.textContent ?? '');
    for (const child of ('childNodes' in node ? node.childNodes : undefined) ?? []) walk(child, into);
    if (node.nodeName === 'w:p') paragraphs.push(into.splice(0).join(''));
  };
  walk(xml, []);
  return `${paragraphs.join('\n')}\n`;
}

/** What GET of a Word template adds: its placeholders and the lint of its sample data. */
export async function wordFactsOf(record: {
  html: string;
  sampleData: Record<string, unknown> | null;
}): Promise<{ placeholders: WordPlaceholder[]; data_lint: DataLint }> {
  const placeholders = await parseWordTemplate(record.html);
  return { placeholders, data_lint: lintWordData(placeholders, record.sampleData ?? {}) };
}
