// The url-only options that carry credentials (http_headers, cookies, basic_auth, user_agent) as
// zod schemas. origin-credentials.ts sends them, and only to the url's own origin.

import { z } from 'zod';

/** Names a caller may not set: hop-by-hop, framing, Host, Cookie (use cookies) and Proxy-*. */
const REFUSED_HEADER = /^(connection|keep-alive|te|trailer|transfer-encoding|upgrade|host|cookie|content-length|expect|proxy-.*)$/i;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NO_LINE_BREAKS = /^[^\r\n\0]*$/;
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

const ORIGIN_ONLY =
  'Sent only to the url’s own origin (scheme, host and port): never to sub-resources elsewhere, nor after a redirect to another origin. Never logged.';

export const httpHeadersSchema = z
  .record(z.string(), z.string().max(8192).regex(NO_LINE_BREAKS, { message: 'must not contain line breaks' }))
  // Names are checked here rather than by a key schema, so the message names the header.
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > 20) ctx.addIssue({ code: 'custom', message: 'must have at most 20 headers', input: undefined });
    for (const name of names) {
      if (!TOKEN.test(name) || name.length > 256) ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid HTTP header name', input: undefined });
      else if (REFUSED_HEADER.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'may not be set (hop-by-hop, Host, Cookie and Proxy-* headers are refused; use cookies for cookies)',
          input: undefined,
        });
      }
    }
  })
  .describe(`Extension, url renders only: extra request headers. ${ORIGIN_ONLY}`);

export const cookieSchema = z.strictObject({
  name: z.string().min(1).max(256).regex(COOKIE_NAME, { message: 'must be a valid cookie name' }),
  value: z.string().max(4096).regex(COOKIE_VALUE, { message: 'must be a valid cookie value (no spaces, quotes, commas, semicolons or backslashes)' }),
  path: z.string().max(1024).startsWith('/').optional().describe('Sent only for paths under this one. Default: /.'),
  secure: z.boolean().optional().describe('Sent only over https.'),
  http_only: z.boolean().optional().describe('Accepted for compatibility: these cookies are never visible to the page’s scripts anyway.'),
  same_site: z.enum(['Strict', 'Lax', 'None']).optional().describe('Accepted for compatibility: the cookies only go to the url’s own origin anyway.'),
});

export const urlOnlyFields = {
  http_headers: httpHeadersSchema.optional(),
  cookies: z.array(cookieSchema).max(50).optional().describe(`Extension, url renders only: cookies sent as a Cookie header. ${ORIGIN_ONLY}`),
  basic_auth: z
    .strictObject({
      username: z
        .string()
        .max(256)
        .regex(/^[^:\r\n\0]*$/, { message: 'must not contain a colon or line breaks' }),
      password: z.string().max(256).regex(NO_LINE_BREAKS, { message: 'must not contain line breaks' }),
    })
    .optional()
    .describe(`Extension, url renders only: HTTP Basic credentials, sent up front. ${ORIGIN_ONLY}`),
  user_agent: z
    .string()
    .min(1)
    .max(512)
    .regex(NO_LINE_BREAKS, { message: 'must not contain line breaks' })
    .optional()
    .describe(`Extension, url renders only: the User-Agent header. ${ORIGIN_ONLY}`),
};

export const URL_ONLY_OPTIONS = Object.keys(urlOnlyFields) as (keyof typeof urlOnlyFields)[];

export type OriginCredentials = { [K in keyof typeof urlOnlyFields]?: z.output<(typeof urlOnlyFields)[K]> };

/** The url-only options a set of options carries (to refuse them on html and template renders). */
export function urlOnlyOptionsIn(options: OriginCredentials | undefined): string[] {
  return options ? URL_ONLY_OPTIONS.filter((name) => options[name] !== undefined) : [];
}
