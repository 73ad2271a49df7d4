// POST /v1/image: validate, capture through ImageService, answer the image bytes.

import { operation } from '../operation.ts';
import { imageOptionsSchema, imageRequestSchema } from '../schemas/image.ts';
import { SOURCE_RENDER_ERRORS } from '../schemas/render.ts';
import { IMAGE_CONTENT_TYPES } from '../../render/image-capture.ts';
import type { ImageService } from '../../services/render/image.ts';
import { accountOf } from '../middleware/auth.ts';
import { USAGE_HEADER_DOCS, usageHeaders } from '../../wire/usage-headers.ts';
import { RECEIPT_HEADER_DOCS, setReceiptHeader } from './receipts.ts';
import { requestIdOf } from './render.ts';

const DEFAULT_IMAGE_OPTIONS = imageOptionsSchema.parse({});

export function imageOperations(service: ImageService) {
  return [
    operation({
      method: 'post',
      path: '/v1/image',
      summary: 'Render HTML, a URL or a stored template to a PNG, JPEG or WebP image',
      tag: 'Render',
      auth: 'api_key',
      body: imageRequestSchema,
      description:
        'The page is laid out in options.viewport (default 1280 x 800) with screen media and captured as options.type; full_page takes the ' +
        'whole scrollable page, clip a rectangle. Sources, waits, url credentials and the network guard as for POST /v1/pdf. Charged one ' +
        'document, like a PDF render; images are not stored.',
      responses: {
        200: {
          description: 'The image (Content-Type image/png, image/jpeg or image/webp).',
          body: 'image',
          headers: { ...USAGE_HEADER_DOCS, ...RECEIPT_HEADER_DOCS },
        },
      },
      errors: SOURCE_RENDER_ERRORS,
      handler: async ({ body }, _req, res) => {
        const rendered = await service.render(body, accountOf(res), DEFAULT_IMAGE_OPTIONS, requestIdOf(res));
        res.status(200).type(IMAGE_CONTENT_TYPES[rendered.type]);
        if (rendered.usage) res.set(usageHeaders(rendered.usage));
        setReceiptHeader(res, rendered.receiptIds);
        res.end(Buffer.from(rendered.pdf.buffer, rendered.pdf.byteOffset, rendered.pdf.byteLength));
      },
    }),
  ];
}
