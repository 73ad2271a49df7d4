// Wire schemas of the template endpoints (docs/api.md#templates) and the admin's views of them.

import { z } from 'zod';
import { idPattern } from '../../ids.ts';
import { renderFields, requestOptionsSchema } from './render.ts';
import { nextCursorSchema } from './paging.ts';
import { TEMPLATE_FORMATS } from '../../stores/templates.ts';

/** Nesting deeper than this in sample_data is refused: it is stored, and stays readable. */
const MAX_SAMPLE_DEPTH = 64;

const name = z.string().min(1).max(200).describe('A label for the template.');
const html = z
  .string()
  .describe(
    'The template’s text, HTML or Markdown as format says, with placeholders: {{path}} (escaped), {{{path}}} (raw), {{#list}}...{{/list}}, ' +
      '{{^path}}...{{/path}}, {{! comment }}.',
  );
const format = z
  .enum(TEMPLATE_FORMATS)
  .describe(
    'Extension: how html is read. "html" (the default). "markdown": placeholders are filled first, {{path}} escaped so that a value is ' +
      'literal text (HTML and Markdown punctuation, line breaks), then the Markdown becomes HTML as a markdown source does (options.css ' +
      'and css_mode style it). "docx": a Word template sent as file (base64) instead of html, with {name}, {#list}…{/list} and ' +
      'condition tags, filled and converted by LibreOffice (docs/office.md#word-templates).',
  );
const file = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, { message: 'must be base64 (no data: prefix, no line breaks)' })
  .describe('With format "docx": the Word template’s bytes, base64 (instead of html).');
const sampleData = z
  .record(z.string(), z.unknown())
  .nullable()
  .refine((value) => depthOf(value) <= MAX_SAMPLE_DEPTH, { message: `must not be nested more than ${MAX_SAMPLE_DEPTH} levels deep` })
  .describe('Example data for previews, kept with the template; not used by renders.');

export const templateBodySchema = z.strictObject({
  name,
  html: html.optional(),
  file: file.optional(),
  format: format.optional(),
  sample_data: sampleData.optional(),
});

export const adminTemplateBodySchema = z.strictObject({
  key_id: z.string().regex(idPattern('key'), { message: 'must be a key id such as key_3kT9...' }).describe('The key that owns the template.'),
  name,
  html: html.optional(),
  file: file.optional(),
  format: format.optional(),
  sample_data: sampleData.optional(),
});

export const previewBodySchema = z
  .strictObject({
    html,
    format: format.optional(),
    data: renderFields.data.optional(),
    options: requestOptionsSchema.optional(),
    template_id: renderFields.template_id.optional().describe('A stored template whose assets the HTML may name (the editor’s preview).'),
  })
  .describe('Template text and data to render once: not stored, not charged.');

const templateFields = {
  template_id: z.string().describe('tpl_...'),
  name: z.string(),
  html: z.string().optional().describe('The text of an HTML or Markdown template.'),
  file: z.string().optional().describe('A Word template’s docx, base64 (format "docx").'),
  placeholders: z
    .array(z.unknown())
    .optional()
    .describe('A Word template’s tags as a tree: {name, kind: "value" | "section", children} (fetching one template only).'),
  data_lint: z
    .object({ missing: z.array(z.string()), unused: z.array(z.string()) })
    .optional()
    .describe('A Word template’s sample data against its tags: placeholders it lacks, data no tag uses (paths as items[].price).'),
  format: format.describe('How the template is read: "html", "markdown" or "docx".'),
  sample_data: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
};

export const templateSchema = z.object(templateFields);
export const templateSummarySchema = z.object({
  template_id: templateFields.template_id,
  name: templateFields.name,
  format: templateFields.format,
  version: z.number().int().optional().describe('The current version (every save makes one, numbered from 1).'),
  asset_count: z.number().int().describe('How many assets the template has.'),
  created_at: templateFields.created_at,
  updated_at: templateFields.updated_at,
});
export const templateListSchema = z.object({ data: z.array(templateSummarySchema), next_cursor: nextCursorSchema });

const keyId = { key_id: z.string().describe('The key that owns it.') };
export const adminTemplateSchema = z.object({ ...templateFields, ...keyId });
export const adminTemplateListSchema = z.object({ data: z.array(templateSummarySchema.extend(keyId)), next_cursor: nextCursorSchema });

/** How deeply a JSON value nests, counted without recursion (so hostile nesting cannot overflow the stack). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_SAMPLE_DEPTH) return deepest;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

export { format as templateFormatSchema };
