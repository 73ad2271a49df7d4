// Template assets over HTTP, for a key (/v1) and the admin (/admin/v1): PUT the raw bytes with
// their Content-Type, list, fetch and delete by name. A name may hold folders
// (fonts/Inter.woff2), so the route takes the rest of the path.

import type { Request } from 'express';
import { z } from 'zod';
import { operation, type AuthScheme } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { readRawBody } from '../raw-body.ts';
import { MAX_ASSET_BYTES, MAX_TEMPLATE_ASSET_BYTES, tooLarge, type AssetMeta, type TemplateAssetsService } from '../../services/templates/assets.ts';

const assetSchema = z.object({
  name: z.string().describe('The relative name the HTML uses: <img src="logo.png">, url(fonts/Inter.woff2).'),
  content_type: z.string(),
  size: z.int().describe('Bytes.'),
  updated_at: z.string().describe('ISO 8601'),
});
const assetListSchema = z.object({ data: z.array(assetSchema) });

const ABOUT =
  'Assets are files a template’s HTML names by relative path (<img src="logo.png">, url(fonts/Inter.woff2), <link href="style.css">). ' +
  'Renders of the template (and admin previews naming it) are answered them from the store, never over the network. ' +
  `Caps: ${MAX_ASSET_BYTES / 1024 / 1024} MB per asset, ${MAX_TEMPLATE_ASSET_BYTES / 1024 / 1024} MB per template; beyond them 413. Assets are not versioned: every version of the template sees the current ones.`;

/** The asset operations under /v1 (the calling key's templates) or /admin/v1 (any template). */
export function templateAssetOperations(assets: TemplateAssetsService, scope: 'key' | 'admin') {
  const base = scope === 'key' ? '/v1/templates/:template_id/assets' : '/admin/v1/templates/:template_id/assets';
  const auth: AuthScheme = scope === 'key' ? 'api_key' : 'admin';
  const tag = scope === 'key' ? 'Templates' : 'Admin: documents and templates';
  const ownerOf = (res: Parameters<typeof accountOf>[0]) => (scope === 'key' ? accountOf(res).keyId : undefined);
  return [
    operation({
      method: 'put',
      path: `${base}/*name`,
      summary: 'Upload a template asset',
      description: `${ABOUT} The body is the file’s raw bytes, sent with its Content-Type; an existing asset of that name is replaced.`,
      tag,
      auth,
      rawBody: '*/*',
      responses: { 200: { description: 'The asset.', body: assetSchema } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found', 'payload_too_large'],
      handler: async ({ params }, req, res) => {
        const bytes = await readRawBody(req, MAX_ASSET_BYTES, tooLarge);
        res.json(assetJson(await assets.put(ownerOf(res), params.template_id!, nameOf(req), req.headers['content-type'], bytes)));
      },
    }),
    operation({
      method: 'get',
      path: base,
      summary: 'List a template’s assets',
      description: ABOUT,
      tag,
      auth,
      responses: { 200: { description: 'Every asset, by name.', body: assetListSchema } },
      errors: ['unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json({ data: (await assets.list(ownerOf(res), params.template_id!)).map(assetJson) });
      },
    }),
    operation({
      method: 'get',
      path: `${base}/*name`,
      summary: 'Fetch a template asset',
      tag,
      auth,
      responses: { 200: { description: 'The raw bytes with their Content-Type.', body: 'text' } },
      errors: ['unauthorized', 'template_not_found', 'not_found'],
      handler: async ({ params }, req, res) => {
        const asset = await assets.get(ownerOf(res), params.template_id!, nameOf(req));
        res.status(200).set({ 'Content-Type': asset.meta.contentType, 'Cache-Control': 'no-store' }).end(Buffer.from(asset.bytes));
      },
    }),
    operation({
      method: 'delete',
      path: `${base}/*name`,
      summary: 'Delete a template asset',
      tag,
      auth,
      responses: { 204: { description: 'Deleted.' } },
      errors: ['unauthorized', 'template_not_found', 'not_found'],
      handler: async ({ params }, req, res) => {
        await assets.remove(ownerOf(res), params.template_id!, nameOf(req));
        res.status(204).end();
      },
    }),
  ];
}

/** Express gives a wildcard as its path segments. */
function nameOf(req: Request): string {
  const name = (req.params as Record<string, string | string[]>).name;
  return Array.isArray(name) ? name.join('/') : (name ?? '');
}

function assetJson(meta: AssetMeta) {
  return { name: meta.name, content_type: meta.contentType, size: meta.size, updated_at: meta.updatedAt };
}
