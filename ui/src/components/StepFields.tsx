// The fields of one PDF transform step (lib/pdf-steps.ts), shared by the PDF tools screen's step
// list and the documents screen's split and compress dialog.

import type { StepDraft } from '../lib/pdf-steps.ts';
import { Check, Field, NumberField } from './Fields.tsx';
import { Select } from './Select.tsx';

const ANGLES = [
  { value: '90', label: '90° clockwise' },
  { value: '180', label: '180°' },
  { value: '-90', label: '90° anticlockwise' },
];
const SPLIT_MODES = [
  { value: 'every', label: 'Every N pages' },
  { value: 'ranges', label: 'By page ranges' },
  { value: 'bookmarks', label: 'By top-level bookmarks' },
];
const COMPRESS_MODES = [
  { value: 'images', label: 'Images (downsample and re-encode)' },
  { value: 'lossless', label: 'Lossless (streams only)' },
];

export function StepFields({ step, onChange }: { step: StepDraft; onChange: (next: StepDraft) => void }) {
  const id = (name: string) => `step-${step.id}-${name}`;
  const set = (changes: Partial<StepDraft>) => onChange({ ...step, ...changes } as StepDraft);
  const text = (name: string, label: string, value: string, placeholder: string, hint?: string) => (
    <Field label={label} id={id(name)} hint={hint}>
      <input id={id(name)} className="input" value={value} placeholder={placeholder} onChange={(event) => set({ [name]: event.target.value })} />
    </Field>
  );
  // Every number of a step is a whole number in bounds, its default shown and used when left empty.
  const whole = (name: string, label: string, value: number | undefined, [min, max, fallback]: [number, number, number], hint?: string) => (
    <NumberField
      label={label}
      id={id(name)}
      hint={hint}
      bounds={{ min, max, step: 1 }}
      value={value}
      placeholder={fallback}
      onChange={(next) => set({ [name]: next ?? fallback })}
    />
  );
  switch (step.op) {
    case 'select':
      return text('pages', 'Pages to keep', step.pages, '1-3, 5', 'In this order; repeats make copies.');
    case 'delete':
      return text('pages', 'Pages to delete', step.pages, '2, 4-6');
    case 'reorder':
      return text('order', 'New order', step.order, '3, 1-2', 'Every page once.');
    case 'duplicate':
      return (
        <>
          {text('pages', 'Pages to copy', step.pages, '1')}
          {whole('copies', 'Copies', step.copies, [1, 100, 1])}
        </>
      );
    case 'insert_blank':
      return (
        <>
          {whole('after', 'After page', step.after, [0, 100_000, 0], '0 puts them first')}
          {whole('count', 'Blank pages', step.count, [1, 100, 1])}
        </>
      );
    case 'rotate':
      return (
        <>
          <Field label="Angle" id={id('angle')}>
            <Select id={id('angle')} value={String(step.angle)} choices={ANGLES} onChange={(angle) => set({ angle: Number(angle) })} />
          </Field>
          {text('pages', 'Pages', step.pages, 'all', 'Empty: every page.')}
        </>
      );
    case 'split':
      return (
        <>
          <Field label="Split" id={id('mode')} hint="Answers a zip of the parts.">
            <Select id={id('mode')} value={step.mode} choices={SPLIT_MODES} onChange={(mode) => set({ mode: mode as typeof step.mode })} />
          </Field>
          {step.mode === 'every' && whole('every', 'Pages per part', step.every, [1, 2000, 1])}
          {step.mode === 'ranges' && text('ranges', 'Parts', step.ranges, '1-3; 4-', 'One part per range, separated by ;')}
        </>
      );
    case 'flatten':
      return <p className="muted small">Form fields and annotations become page content; scripts and actions are removed.</p>;
    case 'compress':
      return (
        <>
          <Field label="Compression" id={id('mode')}>
            <Select id={id('mode')} value={step.mode} choices={COMPRESS_MODES} onChange={(mode) => set({ mode: mode as typeof step.mode })} />
          </Field>
          {step.mode === 'images' && (
            <>
              {whole('dpi', 'Image resolution (dpi)', step.dpi, [36, 600, 150])}
              {whole('quality', 'JPEG quality', step.quality, [10, 100, 75])}
            </>
          )}
        </>
      );
    case 'fill_form':
      return (
        <>
          <Field label="Field values (JSON)" id={id('fields')} hint='By full field name: {"name": "Ada", "agree": true}'>
            <textarea id={id('fields')} className="input mono" rows={4} value={step.fields} onChange={(event) => set({ fields: event.target.value })} />
          </Field>
          <Check label="Flatten after filling" checked={step.flatten} onChange={(flatten) => set({ flatten })} />
        </>
      );
  }
}
