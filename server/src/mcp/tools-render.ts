// The tools that make a PDF from a source: render_pdf (html, url or markdown), render_template (a
// stored template and data) and convert_office. Each is one POST of the API it is named after.

import { z } from 'zod';
import { officeJsonRequestSchema } from '../http/schemas/office.ts';
import { renderFields, renderRequestSchema, sourceFields } from '../http/schemas/render.ts';
import { pdfResult } from './results.ts';
import { CHARGED, callStoring, type ToolArgs, type ToolSpec } from './tool-spec.ts';

const topStore = (args: ToolArgs) => args.store;
const withTopStore = (args: ToolArgs) => ({ ...args, store: true });

const renderTemplateSchema = z
  .strictObject({
    template_id: renderFields.template_id,
    template_version: sourceFields.template_version,
    data: sourceFields.data,
    options: renderFields.options.optional(),
    store: renderFields.store.optional(),
    filename: renderFields.filename.optional(),
  })
  .describe('A stored template of this key (list_templates, get_template) and the data for its placeholders.');

const STORED =
  ' The result is stored (store: true) unless store is false, so it can be read again as a resource; a PDF larger than the inline limit comes back as a link to it.';

export const renderTools: ToolSpec[] = [
  {
    name: 'render_pdf',
    title: 'Render a PDF',
    description:
      'Render HTML, a public URL or Markdown to PDF on Chromium (POST /v1/pdf): exactly one of html, url, markdown (or template_id). ' +
      'URLs pass the network guard: private and loopback addresses are refused (url_blocked). options are the API’s PdfOptions.' +
      STORED +
      CHARGED,
    input: renderRequestSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => pdfResult(await callStoring(api, '/v1/pdf', args, topStore, withTopStore), inlineMaxBytes),
  },
  {
    name: 'render_template',
    title: 'Render a stored template with data',
    description:
      'Fill a stored template’s placeholders with data and render it to PDF (POST /v1/pdf with template_id). get_template shows a template’s placeholders and sample data.' +
      STORED +
      CHARGED,
    input: renderTemplateSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => pdfResult(await callStoring(api, '/v1/pdf', args, topStore, withTopStore), inlineMaxBytes),
  },
  {
    name: 'convert_office',
    title: 'Convert an office document to PDF',
    description:
      'Convert Word, Excel, PowerPoint, OpenDocument, RTF, text or CSV files (base64, with their file names) to PDF through LibreOffice ' +
      '(POST /v1/convert/office); several files with merge: true become one PDF. A server without LibreOffice answers office_unavailable.' +
      STORED +
      ' Charged: one document per file (402 quota_exceeded when the allowance is used up); a refused call is not charged.',
    input: officeJsonRequestSchema,
    readOnly: false,
    call: async (args, { api, inlineMaxBytes }) => pdfResult(await callStoring(api, '/v1/convert/office', args, topStore, withTopStore), inlineMaxBytes),
  },
];
