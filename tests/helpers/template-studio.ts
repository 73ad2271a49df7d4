// Shared by tests/api/template-studio*.test.ts: templates and their assets made through the API,
// renders read back as bytes, and a red square PNG to draw.

import assert from 'node:assert/strict';
import { createCanvas } from '@napi-rs/canvas';
import type { TestServer } from './start-app.ts';

export const LOAD = { wait_until: 'load' };

export async function createTemplate(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const response = await server.request('POST', '/v1/templates', body);
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { template_id: string }).template_id;
}

export function putAsset(
  server: TestServer,
  templateId: string,
  name: string,
  contentType: string | undefined,
  bytes: Uint8Array,
  admin = false,
): Promise<Response> {
  const authorization = `Bearer ${admin ? server.adminToken : server.key.key}`;
  const prefix = admin ? '/admin/v1' : '/v1';
  return fetch(`${server.url}${prefix}/templates/${templateId}/assets/${name}`, {
    method: 'PUT',
    headers: { authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
  });
}

export async function renderPdf(server: TestServer, body: Record<string, unknown>): Promise<Uint8Array> {
  const response = await server.render({ options: LOAD, ...body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 300)).toString());
  return bytes;
}

export function redSquarePng(size: number): Uint8Array {
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = '#d00';
  context.fillRect(0, 0, size, size);
  return new Uint8Array(canvas.toBuffer('image/png'));
}
