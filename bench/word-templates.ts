// Bench: a Word template with 50 table rows rendered by POST /v1/pdf (template_id + data: fill the
// docx with easy-template-x, then the warm LibreOffice pool) beside POST /v1/convert/office of the
// same docx already filled. Issue 43's goal: the template at >= 0.8x the plain conversion.
// Run: npx tsx bench/word-templates.ts   (the main bench runs it among its extras)

import { fillWordTemplate } from '../server/src/services/word/fill.ts';
import { invoiceData, invoiceTemplate, pngDataUrl } from '../tests/helpers/word-fixtures.ts';
import { isMain, runBenchAlone } from './alone.ts';
import { measure, SECONDS } from './cells.ts';
import type { ServiceProcess } from './service-process.ts';

/** Word template renders beside converting the filled docx, on a running service with LibreOffice. */
export async function measureWordTemplates(service: ServiceProcess): Promise<string> {
  const health = (await (await fetch(`${service.url}/health`)).json()) as { office: { available: boolean; reason?: string } };
  if (!health.office.available) return `Word templates: not measured (${health.office.reason}).`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const template = Buffer.from(invoiceTemplate()).toString('base64');
  const data = invoiceData(50, pngDataUrl(120, 60));
  const created = await fetch(`${service.url}/v1/templates`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench invoice', format: 'docx', file: template }),
  });
  if (created.status !== 201) throw new Error(`creating the Word template answered ${created.status}: ${await created.text()}`);
  const { template_id } = (await created.json()) as { template_id: string };
  const filled = Buffer.from(await fillWordTemplate(template, data)).toString('base64');
  const call = (path: string, body: string) => async () => {
    const response = await fetch(`${service.url}${path}`, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const render = call('/v1/pdf', JSON.stringify({ template_id, data }));
  const convert = call('/v1/convert/office', JSON.stringify({ file: filled, filename: 'invoice.docx' }));
  // One of each first, not counted: the pool's processes may still be starting.
  await render();
  await convert();
  // Alternated halves so that a slower machine moment does not fall on one side only.
  const a = await measure(convert, 1, SECONDS / 2, 3);
  const b = await measure(render, 1, SECONDS / 2, 3);
  const c = await measure(convert, 1, SECONDS / 2, 3);
  const d = await measure(render, 1, SECONDS / 2, 3);
  const plain = (a.perSecond + c.perSecond) / 2;
  const word = (b.perSecond + d.perSecond) / 2;
  return [
    `Word templates (a 50-row invoice with a logo, one client, ${SECONDS} s per cell)`,
    '',
    '| call | renders/s (p50 ms) |',
    '|---|---|',
    `| POST /v1/convert/office, the docx already filled | ${plain.toFixed(2)} (${((a.p50 + c.p50) / 2).toFixed(0)}) |`,
    `| POST /v1/pdf, template_id + data (fill, then convert) | ${word.toFixed(2)} (${((b.p50 + d.p50) / 2).toFixed(0)}) |`,
    '',
    `Template / filled conversion: ${(word / plain).toFixed(2)}x (goal >= 0.8x).`,
  ].join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureWordTemplates);
