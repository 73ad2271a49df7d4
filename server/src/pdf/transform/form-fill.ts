// The fill_form step: AcroForm fields set from values by full field name (text, check boxes,
// radio groups, drop-downs and list boxes), their appearances redrawn so every viewer shows the
// values. Every name and value is checked before any is set: one 400 lists them all. Runs on the
// PDF worker thread (pdf-lib).

import { PDFButton, PDFCheckBox, PDFDocument, PDFDropdown, type PDFField, PDFOptionList, PDFRadioGroup, PDFSignature, PDFTextField } from '@cantoo/pdf-lib';
import { PdfStepError } from '../pdf-errors.ts';
import type { FieldValue } from './steps.ts';

/** The document with the fields set; throws PdfStepError listing every unknown name and wrong value. */
export async function fillForm(pdf: Uint8Array, values: Record<string, FieldValue>, field: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const form = doc.getForm();
  const known = form.getFields();
  const byName = new Map(known.map((item) => [item.getName(), item]));
  const problems: string[] = [];
  const setters: (() => void)[] = [];
  for (const [name, value] of Object.entries(values)) {
    const target = byName.get(name);
    if (!target) {
      problems.push(`${JSON.stringify(name)} is not a field of this form`);
      continue;
    }
    const setter = setterFor(target, value);
    if (typeof setter === 'string') problems.push(`${JSON.stringify(name)} ${setter}`);
    else setters.push(setter);
  }
  if (problems.length > 0) {
    const names = [...byName.keys()];
    const hint = names.length === 0 ? 'the document has no form fields' : `its fields: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}`;
    throw new PdfStepError(`${field}.fields`, `${field}.fields: ${problems.join('; ')} (${hint})`);
  }
  for (const set of setters) set();
  try {
    form.updateFieldAppearances();
  } catch (error) {
    throw new PdfStepError(`${field}.fields`, `${field}.fields: a value cannot be drawn in the form’s font (${(error as Error).message})`);
  }
  return doc.save();
}

/** How to set the field to the value, or what is wrong with the value. */
function setterFor(target: PDFField, value: FieldValue): (() => void) | string {
  if (target instanceof PDFTextField) {
    if (typeof value !== 'string' && typeof value !== 'number') return 'is a text field: give text';
    const text = String(value);
    const max = target.getMaxLength();
    if (max !== undefined && text.length > max) return `takes at most ${max} characters`;
    return () => target.setText(text);
  }
  if (target instanceof PDFCheckBox) {
    if (typeof value !== 'boolean') return 'is a check box: give true or false';
    return () => (value ? target.check() : target.uncheck());
  }
  if (target instanceof PDFRadioGroup) {
    const options = target.getOptions();
    if (typeof value !== 'string' || !options.includes(value)) return `is a radio group: give one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
    return () => target.select(value);
  }
  if (target instanceof PDFDropdown || target instanceof PDFOptionList) {
    const options = target.getOptions();
    const multiple = target.isMultiselect();
    const chosen = Array.isArray(value) ? value : typeof value === 'string' ? [value] : undefined;
    const editable = target instanceof PDFDropdown && target.isEditable();
    if (!chosen || (chosen.length > 1 && !multiple))
      return `is a choice: give ${multiple ? 'one or more' : 'one'} of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
    const unknown = editable ? undefined : chosen.find((option) => !options.includes(option));
    if (unknown !== undefined) return `has no option ${JSON.stringify(unknown)} (its options: ${options.map((o) => JSON.stringify(o)).join(', ')})`;
    return () => target.select(chosen);
  }
  if (target instanceof PDFSignature) return 'is a signature field: it cannot be filled with a value';
  if (target instanceof PDFButton) return 'is a push button: it holds no value';
  return 'is of a kind that cannot be filled';
}
