// The admin's view of templates across keys (docs/api.md#documents-templates-and-batches-of-every-key): list with an optional
// key_id filter, create for a key, fetch, replace, delete, and a preview that renders template
// HTML with data without storing or charging anything.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { operation } from '../operation.ts';
import { adminListQuerySchema, DEFAULT_PAGE_SIZE } from '../schemas/paging.ts';
import { adminTemplateBodySchema, adminTemplateListSchema, adminTemplateSchema, previewBodySchema, templateBodySchema } from '../schemas/templates.ts';
import type { RenderService } from '../../services/render/render.ts';
import type { TemplateRecord, TemplatesService } from '../../services/templates/templates.ts';
import { templateInputOf, templatePageJson, templateWithFacts } from './templates.ts';

const TAG = 'Admin: documents and templates';

/** `finish` runs the final steps (attachments, e-invoice, PDF/A) on a preview, as on a render, uncharged. */
export function adminTemplateOperations(templates: TemplatesService, finish: Pick<RenderService, 'finishUncharged'>) {
  return [
    operation({
      method: 'get',
      path: '/admin/v1/templates',
      summary: 'List templates of every key',
      description: 'Newest first, without HTML; key_id keeps one key’s (revoked keys included).',
      tag: TAG,
      auth: 'admin',
      query: adminListQuerySchema,
      responses: { 200: { description: 'One page of templates.', body: adminTemplateListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        res.json(templatePageJson(await templates.list(query.key_id, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor), true));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/templates',
      summary: 'Create a template for a key',
      tag: TAG,
      auth: 'admin',
      body: adminTemplateBodySchema,
      responses: { 201: { description: 'The template.', body: adminTemplateSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'payload_too_large'],
      handler: async ({ body }, _req, res) => {
        const record = await templates.createForKey(body.key_id, templateInputOf(body));
        res
          .status(201)
          .location(`/admin/v1/templates/${record.id}`)
          .json(await adminTemplateJson(record));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/templates/preview',
      summary: 'Preview template HTML with data',
      description:
        'Renders {html, format, data, options} once: the PDF is not stored and no key is charged. The final steps run as on a render ' +
        '(options.attachments, options.e_invoice, with from_data written from data, options.pdf_a) and send their headers (X-E-Invoice, X-PDF-Conformance).',
      tag: TAG,
      auth: 'admin',
      body: previewBodySchema,
      responses: { 200: { description: 'The PDF.', body: 'pdf' } },
      errors: [
        'invalid_json',
        'invalid_request',
        'element_invalid',
        'unauthorized',
        'template_not_found',
        'payload_too_large',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async ({ body }, _req, res) => {
        const make = () => templates.preview(body.html, body.data, body.options, body.template_id, body.format);
        // The preview is a template render: its data is what an e-invoice's from_data reads ({} when none is sent).
        const { pdf, headers } = await finish.finishUncharged(body.options, make, { data: body.data ?? {} });
        res
          .status(200)
          .type('application/pdf')
          .set(headers)
          .end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/templates/:template_id',
      summary: 'Fetch any template',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The template.', body: adminTemplateSchema } },
      errors: ['unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(await adminTemplateJson(await templates.get(undefined, params.template_id!)));
      },
    }),
    operation({
      method: 'put',
      path: '/admin/v1/templates/:template_id',
      summary: 'Replace any template',
      description: 'Replaces name, html, format and sample_data; the owning key does not change.',
      tag: TAG,
      auth: 'admin',
      body: templateBodySchema,
      responses: { 200: { description: 'The template.', body: adminTemplateSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'template_not_found', 'payload_too_large'],
      handler: async ({ body, params }, _req, res) => {
        const record = await templates.replace(undefined, params.template_id!, templateInputOf(body));
        res.json(await adminTemplateJson(record));
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/templates/:template_id',
      summary: 'Delete any template',
      tag: TAG,
      auth: 'admin',
      responses: { 204: { description: 'Deleted.' } },
      errors: ['unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        await templates.remove(undefined, params.template_id!);
        res.status(204).end();
      },
    }),
  ];
}

/** A saved template as the admin sees it: a Word template with its placeholders and lint, as on GET. */
async function adminTemplateJson(record: TemplateRecord) {
  return { ...(await templateWithFacts(record)), key_id: record.keyId };
}
