// POST /v1/playground/pdf (docs/api.md#playground): a render with no key, for the public
// playground page. Validation here; limits and the render in services/render/playground.ts.

import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { operation } from '../operation.ts';
import { refuseMisplacedOptions, renderFields } from '../schemas/render.ts';
import { contentDisposition } from '../content-disposition.ts';
import { rateLimitHeaders, type PlaygroundService } from '../../services/render/playground.ts';
import { RECEIPT_HEADER_DOCS, setReceiptHeader } from './receipts.ts';
import { requestIdOf } from './render.ts';

const notInPlayground = (why: string) =>
  z
    .unknown()
    .refine(() => false, { message: `is not available in the playground: ${why}` })
    .optional()
    .describe(`Refused: ${why}`);

export const playgroundRequestSchema = z
  .strictObject({
    html: renderFields.html.optional(),
    url: renderFields.url.optional(),
    markdown: renderFields.markdown.optional(),
    data: renderFields.data.optional(),
    options: renderFields.options.optional(),
    filename: renderFields.filename.optional(),
    template_id: notInPlayground('stored templates need an API key (POST /v1/pdf)'),
    store: notInPlayground('playground renders are never stored'),
  })
  .superRefine((body, ctx) => refuseMisplacedOptions(body, ctx))
  .describe('As POST /v1/pdf without template_id and store: exactly one of html or markdown (at most 512 KB) or url.');

/** Read before parsing: room for 512 KB of html with JSON escapes, options and a filename. */
const PLAYGROUND_MAX_BODY = { bytes: 1024 * 1024 };

const RATE_HEADER_DOCS = {
  'RateLimit-Limit': 'Renders allowed per client address per minute (PLAYGROUND_RATE_LIMIT).',
  'RateLimit-Remaining': 'Renders left in the current minute for this address.',
  'RateLimit-Reset': 'Seconds until the oldest counted render leaves the window.',
};

export function playgroundOperations(playground: PlaygroundService, enabled: boolean) {
  return [
    operation({
      method: 'post',
      path: '/v1/playground/pdf',
      summary: 'Render HTML, Markdown or a URL without a key (the public playground)',
      description:
        'No key and no charge to any account. The body is capped at 1 MB before it is parsed and html or markdown at 512 KB (413 payload_too_large); ' +
        'template_id and store are refused (400). ' +
        'Each client address (an IPv6 client by its /64) may render PLAYGROUND_RATE_LIMIT times a minute (default 10), counted over a ' +
        'sliding minute before anything else is done (a refused url counts too); past that: 429 rate_limited with Retry-After. ' +
        'All playground callers together hold at most PLAYGROUND_CONCURRENCY render slots (default 1, never all of them when the server has two or more), ' +
        'so keyed renders always keep a slot; a playground render that waits too long for its share is 503 renderer_busy with Retry-After. ' +
        'options.timeout_ms is lowered to PLAYGROUND_MAX_TIMEOUT_MS (default 15000) when larger. The network guard applies as for POST /v1/pdf. ' +
        'The client address is the connection’s peer, unless TRUST_PROXY names the reverse proxies whose X-Forwarded-For is believed. ' +
        'PLAYGROUND_ENABLED=false switches it off: 404 not_found.',
      tag: 'Playground',
      auth: 'none',
      // The playground page's timeout field reads its cap here (ui/src/lib/pdf-options.ts), so it is configured once.
      extensions: { 'x-max-timeout-ms': playground.maxTimeoutMs },
      body: playgroundRequestSchema,
      bodyLimit: PLAYGROUND_MAX_BODY,
      responses: { 200: { description: 'The PDF.', body: 'pdf', headers: { ...RATE_HEADER_DOCS, ...RECEIPT_HEADER_DOCS } } },
      errors: [
        'invalid_json',
        'invalid_request',
        'url_blocked',
        'conflicting_source',
        'not_found',
        'payload_too_large',
        'navigation_failed',
        'page_crashed',
        'rate_limited',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async ({ body }, req, res) => {
        if (!enabled) throw new ApiError('not_found', 'The playground is switched off on this server (PLAYGROUND_ENABLED=false).');
        const rendered = await playground.render(body, req.ip ?? req.socket.remoteAddress ?? 'unknown', requestIdOf(res));
        res.status(200).type('application/pdf').set(rateLimitHeaders(rendered.rate)).set(rendered.headers);
        setReceiptHeader(res, rendered.receiptId ? [rendered.receiptId] : undefined, 'playground');
        if (rendered.filename) res.setHeader('Content-Disposition', contentDisposition(rendered.filename));
        res.end(Buffer.from(rendered.pdf.buffer, rendered.pdf.byteOffset, rendered.pdf.byteLength));
      },
    }),
  ];
}
