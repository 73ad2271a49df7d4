// Admin API for keys and plans (docs/api.md#keys-and-plans): issue, list with usage, change,
// rotate, revoke; list plans. Admin token only. Serializers turn service views into the wire form.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { toPlanEntry } from '../../accounts/plans.ts';
import type { KeysService, KeyView, KeyWithUsage } from '../../services/accounts/keys.ts';
import { operation } from '../operation.ts';
import { DEFAULT_PAGE_SIZE, listQuerySchema } from '../schemas/paging.ts';
import { createKeyBodySchema, issuedKeySchema, keyListSchema, keyWithUsageSchema, planListSchema, updateKeyBodySchema } from '../schemas/admin-keys.ts';

const TAG = 'Admin: keys and plans';

export function adminKeyOperations(keys: KeysService) {
  return [
    operation({
      method: 'post',
      path: '/admin/v1/keys',
      summary: 'Issue an API key',
      description: 'The key (sk_live_...) is in this response only; the server keeps just its hash.',
      tag: TAG,
      auth: 'admin',
      body: createKeyBodySchema,
      responses: { 201: { description: 'The new key, shown once.', body: issuedKeySchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized'],
      handler: async ({ body }, _req, res) => {
        const issued = await keys.create({ name: body.name, planId: body.plan, autoStore: body.auto_store, receipts: body.receipts });
        res.status(201).json({ ...keyJson(issued), key: issued.key });
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/keys',
      summary: 'List API keys with this month’s usage',
      description:
        'Newest first, paged like documents (limit 1..100, default 20; cursor from next_cursor). Revoked keys are not listed. usage.used is null for a key whose usage file is damaged (that key’s calls fail until the operator repairs it; see `npm run cli -- doctor`).',
      tag: TAG,
      auth: 'admin',
      query: listQuerySchema,
      responses: { 200: { description: 'A page of live keys, newest first.', body: keyListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        const page = await keys.page(query.limit ?? DEFAULT_PAGE_SIZE, query.cursor);
        res.json({ data: page.items.map(keyWithUsageJson), next_cursor: page.nextCursor });
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/keys/:id',
      summary: 'One API key with this month’s usage',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The key record.', body: keyWithUsageSchema } },
      errors: ['unauthorized', 'not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(keyWithUsageJson(await keys.get(params.id!)));
      },
    }),
    operation({
      method: 'patch',
      path: '/admin/v1/keys/:id',
      summary: 'Change a key’s name, plan, auto_store or receipts',
      description: 'Takes effect on the key’s next request; usage this month is kept across a plan change.',
      tag: TAG,
      auth: 'admin',
      body: updateKeyBodySchema,
      responses: { 200: { description: 'The key record.', body: keyWithUsageSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'not_found'],
      handler: async ({ body, params }, _req, res) => {
        const updated = await keys.update(params.id!, { name: body.name, planId: body.plan, autoStore: body.auto_store, receipts: body.receipts });
        res.json(keyWithUsageJson(updated));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/keys/:id/rotate',
      summary: 'Rotate a key',
      description: 'Issues a new secret for the same key id (plan, usage, documents and templates stay); the old secret stops working at once.',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The key record with the new key, shown once.', body: issuedKeySchema } },
      errors: ['unauthorized', 'not_found'],
      handler: async ({ params }, _req, res) => {
        const rotated = await keys.rotate(params.id!);
        res.json({ ...keyJson(rotated), key: rotated.key });
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/keys/:id',
      summary: 'Revoke a key',
      description: 'The key stops working at once. Its documents and templates stay reachable to the admin until retention ends.',
      tag: TAG,
      auth: 'admin',
      responses: { 204: { description: 'Revoked.' } },
      errors: ['unauthorized', 'not_found'],
      handler: async ({ params }, _req, res) => {
        await keys.revoke(params.id!);
        res.status(204).end();
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/plans',
      summary: 'List plans',
      description: 'The built-in plans as overridden and extended by PLANS_FILE.',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'Every plan.', body: planListSchema } },
      errors: ['unauthorized'],
      handler: (_input, _req, res) => {
        res.json({ data: keys.plans().map(toPlanEntry) });
      },
    }),
  ];
}

function keyJson(key: KeyView) {
  return { id: key.id, name: key.name, plan: key.planId, auto_store: key.autoStore, receipts: key.receipts, created_at: key.createdAt };
}

function keyWithUsageJson(key: KeyWithUsage) {
  return { ...keyJson(key), usage: { month: key.usage.month, used: key.usage.used, limit: key.usage.limit } };
}
