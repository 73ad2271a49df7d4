// The steps of a PDF transform (docs/api.md#transform-a-pdf) as zod schemas: they validate
// requests and presets and feed the OpenAPI document. Each `op` is carried out by one module of
// this folder; pipeline.ts runs them in the order given.

import { z } from 'zod';
import { pageListSchema } from '../page-list.ts';

/** At most this many steps in one call or preset. */
export const MAX_STEPS = 20;

const pages = (what: string) => pageListSchema(what);
const partName = z
  .string()
  .min(1)
  .max(200)
  .refine((name) => ![...name].some((char) => char === '/' || char === '\\' || char.charCodeAt(0) < 32), {
    message: 'must be a file name without slashes or control characters',
  });

const splitStep = z
  .strictObject({
    op: z.literal('split'),
    every: z.int().min(1).max(2000).optional().describe('A part every N pages (the last may be shorter).'),
    ranges: z.array(pages('One part.')).min(1).max(500).optional().describe('One part per entry, in order, e.g. ["1-3", "4-"]. Parts may overlap.'),
    by: z.literal('bookmarks').optional().describe('A part per top-level bookmark, from its page to the page before the next one.'),
    names: z.array(partName).max(2000).optional().describe('The parts’ file names, in order. Default: <name>-<first>-<last>.pdf, or the bookmark’s title.'),
    output: z
      .enum(['zip', 'documents'])
      .default('zip')
      .describe('zip: one application/zip answer with every part. documents: each part kept as a stored document (needs storage), answered as JSON.'),
  })
  .refine((step) => [step.every, step.ranges, step.by].filter((value) => value !== undefined).length === 1, {
    message: 'needs exactly one of every, ranges and by',
  })
  .describe('Cuts the document into parts; the steps after it apply to every part.');

const selectStep = z
  .strictObject({ op: z.literal('select'), pages: pages('The pages to keep, in this order (repeats allowed).') })
  .describe('Keeps only these pages.');
const deleteStep = z.strictObject({ op: z.literal('delete'), pages: pages('The pages to take out.') }).describe('Takes pages out.');
const reorderStep = z
  .strictObject({ op: z.literal('reorder'), order: pages('Every page once, in the new order, e.g. "3, 1-2".') })
  .describe('Puts the pages in a new order; every page must be named once.');
const duplicateStep = z
  .strictObject({
    op: z.literal('duplicate'),
    pages: pages('The pages to copy.'),
    copies: z.int().min(1).max(100).default(1).describe('Copies of each, placed right after it.'),
  })
  .describe('Repeats pages.');
const insertBlankStep = z
  .strictObject({
    op: z.literal('insert_blank'),
    after: z.int().min(0).max(100_000).describe('The page the blank pages follow; 0 puts them first.'),
    count: z.int().min(1).max(100).default(1),
    size: z
      .tuple([z.number().min(36).max(14_400), z.number().min(36).max(14_400)])
      .optional()
      .describe('Width and height in points. Default: the size of the page before (of the first page when after is 0).'),
  })
  .describe('Inserts blank pages.');
const rotateStep = z
  .strictObject({
    op: z.literal('rotate'),
    angle: z
      .int()
      .min(-270)
      .max(270)
      .refine((angle) => angle % 90 === 0, { message: 'must be a multiple of 90' })
      .describe('Degrees clockwise: 90, 180, 270 (or negative: anticlockwise), added to each page’s rotation.'),
    pages: pages('Default: every page.').optional(),
  })
  .describe('Turns pages.');
const flattenStep = z
  .strictObject({ op: z.literal('flatten') })
  .describe(
    'Form fields and annotations become page content (what you see is what prints; the fields are gone); JavaScript, launch and other actions are removed.',
  );
const compressStep = z
  .strictObject({
    op: z.literal('compress'),
    mode: z
      .enum(['images', 'lossless'])
      .default('images')
      .describe(
        'images: photos downsampled to dpi and re-encoded as JPEG at quality (Ghostscript), then as lossless. lossless: streams recompressed, object streams (qpdf); pixels untouched.',
      ),
    dpi: z.int().min(36).max(600).default(150).describe('images: the resolution images are downsampled to (when above 1.5× it).'),
    quality: z.int().min(10).max(100).default(75).describe('images: JPEG quality.'),
  })
  .describe('Makes the file smaller; text stays text.');
const fieldValue = z.union([z.string().max(10_000), z.boolean(), z.number(), z.array(z.string().max(1000)).max(100)]);
const fillFormStep = z
  .strictObject({
    op: z.literal('fill_form'),
    fields: z
      .record(z.string().min(1).max(500), fieldValue)
      .describe(
        'Values by full field name: text fields take text (or a number), check boxes true or false, radio groups and choices one of their options (a list box also a list).',
      ),
    flatten: z.boolean().default(false).describe('Then flatten the whole document (as the flatten step).'),
  })
  .describe('Fills AcroForm fields; unknown names and values of the wrong type are a 400 listing each.');

export const transformStepSchema = z.discriminatedUnion('op', [
  splitStep,
  selectStep,
  deleteStep,
  reorderStep,
  duplicateStep,
  insertBlankStep,
  rotateStep,
  flattenStep,
  compressStep,
  fillFormStep,
]);

export const transformStepsSchema = z
  .array(transformStepSchema)
  .min(1)
  .max(MAX_STEPS)
  .refine((steps) => steps.filter((step) => step.op === 'split').length <= 1, { message: 'may split once' })
  .describe(`What to do, in order (at most ${MAX_STEPS} steps).`);

export type TransformStep = z.output<typeof transformStepSchema>;
export type SplitStep = z.output<typeof splitStep>;
export type FillFormStep = z.output<typeof fillFormStep>;
export type CompressStep = z.output<typeof compressStep>;
export type FieldValue = z.output<typeof fieldValue>;
