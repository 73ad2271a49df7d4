// The fast way to draw header and footer instances on a body Chromium printed: an incremental
// update appended to the body's bytes (the instances' objects, one Form XObject per instance,
// and new versions of the page dictionaries), without parsing or rewriting the rest of the file.
// Loading and saving the whole body with pdf-lib cost most of a header's price on long documents
// (docs/decisions.md#headers-and-footers-printed-apart-and-stamped-on). Only for files laid out
// as Skia writes them (a classic xref table, plain dictionaries); anything else answers undefined
// and stamp.ts takes the pdf-lib way.

import { parseValue, PdfSyntaxError, type PdfValue, renumber, serialize } from './pdf-syntax.ts';
import type { StampPlan } from './stamp-plan.ts';

/** The body with its instances drawn, or undefined when a file is not laid out as expected. */
export function stampIncrementally(body: Uint8Array, overlay: Uint8Array, plan: StampPlan): Uint8Array | undefined {
  try {
    return stamp(new PlainPdf(body), new PlainPdf(overlay), plan);
  } catch (error) {
    if (error instanceof PdfSyntaxError) return undefined;
    throw error;
  }
}

function stamp(body: PlainPdf, overlay: PlainPdf, plan: StampPlan): Uint8Array {
  const out = new Writer(body);
  const overlayPages = overlay.pages();
  const copied = new Map<number, number>();
  const copy = (num: number): number => {
    let mapped = copied.get(num);
    if (mapped !== undefined) return mapped;
    mapped = out.allocate();
    copied.set(num, mapped);
    const object = overlay.object(num);
    const value = renumber(object.value, copy);
    if (object.stream) {
      const dict = asDict(value);
      dict.entries.set('Length', { type: 'number', value: String(object.stream.length) });
      out.write(mapped, dict, object.stream);
    } else {
      out.write(mapped, value);
    }
    return mapped;
  };
  const forms = new Map<string, number>();
  const formFor = (side: 'header' | 'footer', index: number): number => {
    const key = `${side}:${index}`;
    let num = forms.get(key);
    if (num !== undefined) return num;
    const page = asDict(overlay.object(overlayPages[index] ?? fail('no such instance')).value);
    const top = Number(numberAt(asArray(page.entries.get('MediaBox')), 3));
    const box = plan[side]!;
    const contents = page.entries.get('Contents');
    const contentRef = contents?.type === 'ref' ? contents : contents?.type === 'array' && contents.items.length === 1 ? contents.items[0] : undefined;
    if (contentRef?.type !== 'ref') fail('instance content is not one stream');
    const content = overlay.object(contentRef.num);
    if (!content.stream) fail('instance content is not a stream');
    const form = new Map<string, PdfValue>([
      ['Type', { type: 'name', value: 'XObject' }],
      ['Subtype', { type: 'name', value: 'Form' }],
      ['FormType', { type: 'number', value: '1' }],
      ['BBox', numbers([0, top - box.height, box.width, top])],
      ['Matrix', numbers([1, 0, 0, 1, 0, -(top - box.height)])],
      ['Resources', renumber(page.entries.get('Resources') ?? { type: 'dict', entries: new Map() }, copy)],
    ]);
    const contentDict = asDict(content.value);
    for (const entry of ['Filter', 'DecodeParms']) {
      const value = contentDict.entries.get(entry);
      if (value) form.set(entry, renumber(value, copy));
    }
    form.set('Length', { type: 'number', value: String(content.stream.length) });
    num = out.allocate();
    out.write(num, { type: 'dict', entries: form }, content.stream);
    forms.set(key, num);
    return num;
  };
  // The page's own drawing may leave the graphics state changed: wrap it in q ... Q first.
  let save: number | undefined;
  for (const [index, pageNum] of body.pages().entries()) {
    const wants = plan.pages[index];
    if (!wants || (wants.header === undefined && wants.footer === undefined)) continue;
    const page = asDict(body.object(pageNum).value);
    const height = Number(numberAt(asArray(page.entries.get('MediaBox')), 3)) - Number(numberAt(asArray(page.entries.get('MediaBox')), 1));
    const resources = page.entries.get('Resources');
    if (resources?.type !== 'dict') fail('page resources are not inline');
    const xobjects = resources.entries.get('XObject') ?? { type: 'dict', entries: new Map() };
    if (xobjects.type !== 'dict') fail('page XObjects are not inline');
    let operators = 'Q';
    for (const side of ['header', 'footer'] as const) {
      const box = plan[side];
      if (wants[side] === undefined || !box) continue;
      const name = side === 'header' ? 'QuireHeader' : 'QuireFooter';
      xobjects.entries.set(name, { type: 'ref', num: formFor(side, wants[side]!), gen: 0 });
      const y = side === 'header' ? height - box.edge - box.height : box.edge;
      operators += `\nq 1 0 0 1 ${fixed(box.x)} ${fixed(y)} cm /${name} Do Q`;
    }
    resources.entries.set('XObject', xobjects);
    if (save === undefined) {
      save = out.allocate();
      out.write(save, { type: 'dict', entries: new Map() }, Buffer.from('q\n', 'latin1'));
    }
    const draw = out.allocate();
    out.write(draw, { type: 'dict', entries: new Map() }, Buffer.from(`${operators}\n`, 'latin1'));
    const contents = page.entries.get('Contents');
    const own = contents === undefined ? [] : contents.type === 'array' ? contents.items : [contents];
    page.entries.set('Contents', { type: 'array', items: [{ type: 'ref', num: save, gen: 0 }, ...own, { type: 'ref', num: draw, gen: 0 }] });
    out.write(pageNum, page);
  }
  return out.finish();
}

/** A PDF read through its xref table: objects by number, without parsing what is not asked for. */
class PlainPdf {
  readonly text: string;
  readonly offsets = new Map<number, number>();
  readonly trailer: Map<string, PdfValue>;
  readonly startxref: number;

  constructor(readonly bytes: Uint8Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    const tail = this.text.slice(-64);
    const found = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
    if (!found) fail('no startxref');
    this.startxref = Number(found[1]);
    let i = this.startxref;
    if (this.text.slice(i, i + 4) !== 'xref') fail('not a classic xref table');
    i += 4;
    const section = /\s*(\d+)\s+(\d+)\s*/y;
    for (;;) {
      section.lastIndex = i;
      const head = section.exec(this.text);
      if (!head) break;
      const [first, count] = [Number(head[1]), Number(head[2])];
      i = section.lastIndex;
      for (let n = 0; n < count; n++, i += 20) {
        const entry = this.text.slice(i, i + 20);
        if (entry[17] === 'n') this.offsets.set(first + n, Number(entry.slice(0, 10)));
      }
    }
    if (this.text.slice(i, i + 7) !== 'trailer') fail('no trailer');
    this.trailer = asDict(parseValue(this.text, i + 7).value).entries;
    if (this.trailer.has('Prev') || this.trailer.has('Encrypt')) fail('an updated or encrypted file');
  }

  object(num: number): { value: PdfValue; stream?: Uint8Array } {
    const offset = this.offsets.get(num) ?? fail(`no object ${num}`);
    const head = /(\d+)\s+(\d+)\s+obj/y;
    head.lastIndex = offset;
    const matched = head.exec(this.text);
    if (!matched || Number(matched[1]) !== num) fail(`object ${num} is not where the xref says`);
    const { value, end } = parseValue(this.text, head.lastIndex);
    const after = /\s*stream\r?\n/y;
    after.lastIndex = end;
    if (!after.exec(this.text)) return { value };
    const length = asDict(value).entries.get('Length');
    const size =
      length?.type === 'number' ? Number(length.value) : length?.type === 'ref' ? Number(numberOf(this.object(length.num).value)) : fail('no stream length');
    return { value, stream: this.bytes.subarray(after.lastIndex, after.lastIndex + size) };
  }

  /** Page object numbers in order, through the page tree. */
  pages(): number[] {
    const root = this.trailer.get('Root');
    if (root?.type !== 'ref') fail('no root');
    const tree = asDict(this.object(root.num).value).entries.get('Pages');
    if (tree?.type !== 'ref') fail('no page tree');
    const out: number[] = [];
    const walk = (num: number, depth: number) => {
      if (depth > 32) fail('page tree too deep');
      const node = asDict(this.object(num).value);
      const type = node.entries.get('Type');
      if (type?.type === 'name' && type.value === 'Page') {
        out.push(num);
        return;
      }
      for (const kid of asArray(node.entries.get('Kids')).items) {
        if (kid.type !== 'ref') fail('a page tree kid is not a reference');
        walk(kid.num, depth + 1);
      }
    };
    walk(tree.num, 0);
    return out;
  }
}

/** Appends objects after the original bytes and ends with an xref section and trailer pointing back. */
class Writer {
  private readonly chunks: Uint8Array[];
  private length: number;
  private readonly written = new Map<number, number>();
  private next: number;

  constructor(private readonly source: PlainPdf) {
    this.chunks = [source.bytes, Buffer.from('\n', 'latin1')];
    this.length = source.bytes.byteLength + 1;
    this.next = Number(numberOf(source.trailer.get('Size') ?? fail('no size')));
  }

  allocate(): number {
    return this.next++;
  }

  write(num: number, value: PdfValue, stream?: Uint8Array): void {
    this.written.set(num, this.length);
    this.push(`${num} 0 obj\n${serialize(stream ? withLength(value, stream.byteLength) : value)}\n`);
    if (stream) {
      this.push('stream\n');
      this.chunks.push(stream);
      this.length += stream.byteLength;
      this.push('\nendstream\n');
    }
    this.push('endobj\n');
  }

  finish(): Uint8Array {
    const xref = this.length;
    const numbers = [...this.written.keys()].sort((a, b) => a - b);
    let table = 'xref\n0 1\n0000000000 65535 f \n';
    for (let i = 0; i < numbers.length; ) {
      let j = i;
      while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
      table += `${numbers[i]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) table += `${String(this.written.get(numbers[k]!)).padStart(10, '0')} 00000 n \n`;
      i = j + 1;
    }
    const trailer = new Map<string, PdfValue>([['Size', { type: 'number', value: String(this.next) }]]);
    for (const key of ['Root', 'Info', 'ID']) {
      const value = this.source.trailer.get(key);
      if (value) trailer.set(key, value);
    }
    trailer.set('Prev', { type: 'number', value: String(this.source.startxref) });
    this.push(`${table}trailer\n${serialize({ type: 'dict', entries: trailer })}\nstartxref\n${xref}\n%%EOF\n`);
    return Buffer.concat(this.chunks);
  }

  private push(text: string): void {
    const bytes = Buffer.from(text, 'latin1');
    this.chunks.push(bytes);
    this.length += bytes.byteLength;
  }
}

function withLength(value: PdfValue, length: number): PdfValue {
  const dict = asDict(value);
  const entries = new Map(dict.entries);
  entries.set('Length', { type: 'number', value: String(length) });
  return { type: 'dict', entries };
}

function asDict(value: PdfValue | undefined): Extract<PdfValue, { type: 'dict' }> {
  if (value?.type !== 'dict') fail('expected a dictionary');
  return value;
}

function asArray(value: PdfValue | undefined): Extract<PdfValue, { type: 'array' }> {
  if (value?.type !== 'array') fail('expected an array');
  return value;
}

function numberOf(value: PdfValue | undefined): string {
  if (value?.type !== 'number') fail('expected a number');
  return value.value;
}

function numberAt(array: Extract<PdfValue, { type: 'array' }>, index: number): string {
  return numberOf(array.items[index]);
}

function numbers(values: number[]): PdfValue {
  return { type: 'array', items: values.map((value) => ({ type: 'number', value: fixed(value) })) };
}

function fixed(value: number): string {
  return String(Math.round(value * 10000) / 10000);
}

function fail(reason: string): never {
  throw new PdfSyntaxError(reason);
}
