// Wire schemas of the render endpoints (snake_case, as docs/api.md#conventions spells them).

import { z } from 'zod';
import { marginProblem, paperProblem, pdfOptionsSchema, runningProblem } from '../../render/pdf-options.ts';
import { urlOnlyOptionsIn, type OriginCredentials } from '../../render/origin-credentials-options.ts';
import { markdownOnlyOptionsIn, type MarkdownStyle } from '../../render/markdown-style-options.ts';
import { isWellFormedText } from '../content-disposition.ts';
import type { ErrorCode } from '../../errors.ts';

export const TEMPLATE_ID = /^tpl_[A-Za-z0-9]{6,64}$/;

export const filenameSchema = z
  .string()
  .min(1)
  .max(255)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing C0 controls and DEL is the point; \p{Cc} would also refuse C1 and change what is accepted
  .refine((name) => !/[\u0000-\u001f\u007f/\\]/.test(name), { message: 'must not contain slashes or control characters' })
  // It becomes a header and a stored name: refused here, before anything is charged or stored.
  .refine(isWellFormedText, { message: 'must be well-formed Unicode (it holds a lone surrogate such as \\ud800)' })
  .describe('File name for Content-Disposition and the stored copy.');

/**
 * PdfOptions as a request gives them: also refuses margins that leave no room on the paper, a
 * check across fields that pdfOptionsSchema itself leaves out so that it can still be derived
 * from (partial, pick). Batch items merged over shared options need marginProblem on the result.
 */
export const requestOptionsSchema = pdfOptionsSchema.superRefine((options, ctx) => {
  const problem = marginProblem(options);
  if (problem) ctx.addIssue({ code: 'custom', path: ['margin'], message: problem, input: options.margin });
  const paper = paperProblem(options);
  if (paper) ctx.addIssue({ code: 'custom', path: [paper.field], message: paper.message, input: undefined });
  const running = runningProblem(options);
  if (running) ctx.addIssue({ code: 'custom', path: running.path, message: running.message, input: undefined });
});

/** The source fields and per-render fields shared by POST /v1/pdf and batch items. */
export const renderFields = {
  html: z.string().describe('HTML to render. Exactly one of html, url, markdown, template_id.'),
  url: z
    .string()
    .max(8192)
    .describe(
      'Public http(s) URL to render. Checked by the network guard: a scheme other than http(s), or a host that resolves to a loopback, private, ' +
        'link-local, CGNAT, multicast, reserved, documentation or cloud-metadata address (in any spelling, v4 or v6), is 400 url_blocked, and so ' +
        'is a redirect of the url to one, unless the operator opened it with ALLOW_HOSTS. Everything the page itself fetches (sub-resources, ' +
        'frames, fetch/XHR, WebSockets, workers) goes through the same guard; a refused sub-resource fails alone and the render goes on.',
    ),
  markdown: z
    .string()
    .describe(
      'Extension: GitHub-flavoured Markdown to render (tables, task lists, strikethrough, autolinks, footnotes; fenced code highlighted; ' +
        'headings get ids, so options.outline makes bookmarks of them). Raw HTML in it passes through as in an html source, under the same ' +
        'network guard and 5 MB ceiling (after conversion). Styled by a default print stylesheet that options.css extends or replaces (css_mode).',
    ),
  template_id: z.string().regex(TEMPLATE_ID, { message: 'must look like tpl_<id>' }).describe('Id of a stored template.'),
  template_version: z.int().min(1).max(1_000_000_000).describe('A saved version of template_id (GET /v1/templates/{id}/versions); the latest when left out.'),
  data: z.record(z.string(), z.unknown()).describe('Values for the template placeholders; nested objects allowed.'),
  options: requestOptionsSchema,
  store: z.boolean().describe('Keep a copy of the PDF for the plan retention period.'),
  filename: filenameSchema,
};

/** What to render, each optional on the wire (exactly one source is checked by the service): POST /v1/pdf, /v1/image and merge sources. */
/**
 * What a call that renders the source fields below can answer besides 200 (POST /v1/pdf, the image
 * endpoint, merge sources); each endpoint adds its own (storage_unavailable, document_not_found, ...).
 */
export const SOURCE_RENDER_ERRORS: ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'url_blocked',
  'conflicting_source',
  'unauthorized',
  'quota_exceeded',
  'forbidden',
  'template_not_found',
  'payload_too_large',
  'einvoice_invalid',
  'einvoice_unreadable',
  'element_invalid',
  'accessibility_failed',
  'navigation_failed',
  'page_crashed',
  'renderer_busy',
  'render_timeout',
];

export const sourceFields = {
  html: renderFields.html.optional(),
  url: renderFields.url.optional(),
  markdown: renderFields.markdown.optional(),
  template_id: renderFields.template_id.optional(),
  template_version: renderFields.template_version.optional(),
  data: renderFields.data.optional(),
};

export const renderRequestSchema = z
  .strictObject({
    ...sourceFields,
    options: renderFields.options.optional(),
    store: renderFields.store.optional(),
    filename: renderFields.filename.optional(),
  })
  .superRefine((body, ctx) => refuseMisplacedOptions(body, ctx))
  .describe('Exactly one of html, url, markdown or template_id.');

/**
 * Options that belong to another kind of source, refused naming the first: credentials for the
 * url's origin without a url, and Markdown's css with html or url (a template_id may be Markdown:
 * services/templates/templates.ts checks it once the template is read).
 */
export function refuseMisplacedOptions(
  body: { url?: string; html?: string; options?: OriginCredentials & MarkdownStyle },
  ctx: z.RefinementCtx,
  path: (string | number)[] = [],
): void {
  const [urlOnly] = body.url === undefined ? urlOnlyOptionsIn(body.options) : [];
  if (urlOnly) ctx.addIssue({ code: 'custom', path: [...path, 'options', urlOnly], message: 'is only for url renders', input: undefined });
  const [markdownOnly] = body.url !== undefined || body.html !== undefined ? markdownOnlyOptionsIn(body.options) : [];
  if (markdownOnly)
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'options', markdownOnly],
      message: 'is only for markdown sources (and Markdown templates)',
      input: undefined,
    });
}

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string().describe('The server software’s version (package.json), e.g. 0.1.0.'),
  api_version: z.string().describe('The interface’s version, as /openapi.json’s info.version (1.0.0); docs/api.md#versioning.'),
  renderer: z.object({
    browser: z.string(),
    alive: z.boolean(),
    slots: z.int(),
    busy: z.int(),
    queued: z.int(),
    restarts: z.int(),
    render_path: z
      .object({
        mode: z.enum(['virtual-begin-frame', 'virtual-real-frames', 'real']),
        reason: z.string(),
        disabled: z.array(
          z.object({ mode: z.enum(['virtual-begin-frame', 'virtual-real-frames', 'real']), by: z.enum(['probe', 'breaker']), reason: z.string() }),
        ),
        probe_ms: z.int(),
      })
      .describe(
        'The path default renders (networkidle0 on the virtual clock) take on this browser, chosen by a probe at its launch: virtual-begin-frame (frames drawn on request: the headless shell), virtual-real-frames (compositor frames: full Chromium, Electron) or real (the wall clock); `disabled` lists the better paths this browser build cannot or may not use (by the probe, or by the crash breaker after repeated browser crashes) and why.',
      ),
  }),
  office: z
    .union([
      z.object({
        available: z.literal(true),
        version: z.string().describe('The LibreOffice in use.'),
        processes: z.int().describe('Warm LibreOffice processes (OFFICE_CONCURRENCY).'),
        alive: z.int(),
        busy: z.int(),
        queued: z.int(),
        restarts: z.int().describe('Processes replaced: after OFFICE_RESTART_AFTER conversions, a timeout or a crash.'),
        conversions: z.int(),
        isolated_network: z.boolean().describe('LibreOffice runs in a network namespace with no way out.'),
      }),
      z.object({ available: z.literal(false), reason: z.string() }),
    ])
    .describe('Office conversion (optional: its absence does not make the service unhealthy).'),
  signing: z
    .object({ certificates_expiring: z.array(z.object({ id: z.string(), name: z.string(), not_after: z.string(), warning: z.string() })) })
    .optional()
    .describe('Present when a signing certificate has expired or expires within 30 days.'),
});
