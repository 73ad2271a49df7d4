// The interactive form of a PDF (inspect.ts): every terminal field of the AcroForm with its full
// name, type, value and choices, and the signature fields with what their signature dictionary
// says (SubFilter, signer name, time). Read from the field tree itself (ISO 32000-1, 12.7), not
// through a form API that would create a form where there is none.

import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { arrayAt, dictAt, entry, nameAt, nameOf, numberAt, resolve, textAt, textOf } from './pdf-values.ts';

export type PdfFieldType = 'text' | 'checkbox' | 'radio' | 'button' | 'combobox' | 'listbox' | 'signature' | 'unknown';

export interface PdfFormField {
  /** The fully qualified name (parents' names joined with dots), as fill_form takes it. */
  name: string;
  type: PdfFieldType;
  /** Text: the text; checkbox: true or false; radio: the chosen option or null; list: the chosen option(s); signature: whether it is signed. */
  value: string | string[] | boolean | null;
  /** Choices of a radio group, combo box or list box. */
  options?: string[];
  readOnly: boolean;
  required: boolean;
}

export interface PdfSignature {
  field: string;
  signed: boolean;
  /** /Filter and /SubFilter of the signature dictionary: adbe.pkcs7.detached, ETSI.CAdES.detached, ETSI.RFC3161 (a document timestamp)... */
  filter: string | null;
  subFilter: string | null;
  /** The signer's name as the signature dictionary states it (/Name); the certificate is not read. */
  signer: string | null;
  /** /M, the signing time the signer claimed (a PDF date string). */
  signedAt: string | null;
  reason: string | null;
  location: string | null;
}

/** Fields listed at most (a form bomb gets a truncated list). */
const MAX_FIELDS = 5000;

/** The form's fields and its signatures; both empty for a PDF without a form. */
export function formOf(document: PDFDocument): { fields: PdfFormField[]; signatures: PdfSignature[] } {
  const fields: PdfFormField[] = [];
  const signatures: PdfSignature[] = [];
  const acroForm = dictAt(document, document.catalog, 'AcroForm');
  const roots = arrayAt(document, acroForm, 'Fields');
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict, prefix: string, inherited: Inherited, depth: number) => {
    if (seen.has(node) || depth > 32 || fields.length >= MAX_FIELDS) return;
    seen.add(node);
    const partial = textAt(document, node, 'T');
    const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
    const own: Inherited = {
      ft: nameAt(document, node, 'FT') ?? inherited.ft,
      ff: numberAt(document, node, 'Ff') ?? inherited.ff,
      v: entry(document, node, 'V') ?? inherited.v,
      opt: arrayAt(document, node, 'Opt') ?? inherited.opt,
    };
    const kids = (arrayAt(document, node, 'Kids')?.asArray() ?? [])
      .map((kid) => resolve(document, kid))
      .filter((kid): kid is PDFDict => kid instanceof PDFDict);
    const fieldKids = kids.filter((kid) => kid.has(PDFName.of('T')));
    if (fieldKids.length > 0) {
      for (const kid of fieldKids) walk(kid, name, own, depth + 1);
      return;
    }
    const field = describeField(document, name, own, [node, ...kids]);
    fields.push(field);
    if (field.type === 'signature') signatures.push(describeSignature(document, name, own.v));
  };
  for (let i = 0; roots && i < roots.size(); i++) {
    const root = resolve(document, roots.get(i));
    if (root instanceof PDFDict) walk(root, '', {}, 0);
  }
  return { fields, signatures };
}

/** What a field takes from its parents (ISO 32000-1, table 220: FT, Ff, V; and Opt for choices). */
interface Inherited {
  ft?: string;
  ff?: number;
  v?: PDFObject;
  opt?: PDFArray;
}

const READ_ONLY = 1;
const REQUIRED = 1 << 1;
const RADIO = 1 << 15;
const PUSH_BUTTON = 1 << 16;
const COMBO = 1 << 17;

function describeField(document: PDFDocument, name: string, field: Inherited, widgets: PDFDict[]): PdfFormField {
  const flags = field.ff ?? 0;
  const base = { name, readOnly: (flags & READ_ONLY) !== 0, required: (flags & REQUIRED) !== 0 };
  const options = field.opt?.asArray().map((option) => {
    const value = resolve(document, option);
    // An option is a string, or [export value, display text].
    return value instanceof PDFArray ? (textOf(resolve(document, value.get(0))) ?? '') : (textOf(value) ?? '');
  });
  switch (field.ft) {
    case 'Tx':
      return { ...base, type: 'text', value: textOf(field.v) ?? null };
    case 'Ch': {
      const value = field.v instanceof PDFArray ? field.v.asArray().map((item) => textOf(resolve(document, item)) ?? '') : (textOf(field.v) ?? null);
      return { ...base, type: flags & COMBO ? 'combobox' : 'listbox', value, options };
    }
    case 'Btn': {
      if (flags & PUSH_BUTTON) return { ...base, type: 'button', value: null };
      const state = nameOf(field.v);
      if (flags & RADIO) {
        // With /Opt, the widgets' states are indexes into it (ISO 32000-1, 12.7.4.2.4).
        const chosen = state && state !== 'Off' ? (options?.[Number(state)] ?? state) : null;
        return { ...base, type: 'radio', value: chosen, options: options ?? onStates(document, widgets) };
      }
      return { ...base, type: 'checkbox', value: state !== undefined && state !== 'Off' };
    }
    case 'Sig':
      return { ...base, type: 'signature', value: field.v instanceof PDFDict };
    default:
      return { ...base, type: 'unknown', value: textOf(field.v) ?? null };
  }
}

/** A radio group's choices: the "on" appearance state of each widget (every name under /AP /N but Off). */
function onStates(document: PDFDocument, widgets: PDFDict[]): string[] {
  const states = new Set<string>();
  for (const widget of widgets) {
    const normal = dictAt(document, dictAt(document, widget, 'AP'), 'N');
    for (const key of normal?.keys() ?? []) if (key.decodeText() !== 'Off') states.add(key.decodeText());
  }
  return [...states];
}

function describeSignature(document: PDFDocument, field: string, value: PDFObject | undefined): PdfSignature {
  const signature = value instanceof PDFDict ? value : undefined;
  return {
    field,
    signed: signature !== undefined,
    filter: nameAt(document, signature, 'Filter') ?? null,
    subFilter: nameAt(document, signature, 'SubFilter') ?? null,
    signer: textAt(document, signature, 'Name') ?? null,
    signedAt: textAt(document, signature, 'M') ?? null,
    reason: textAt(document, signature, 'Reason') ?? null,
    location: textAt(document, signature, 'Location') ?? null,
  };
}
