// Seeds a throwaway server as a new user would fill it (two keys, an HTML template with an asset
// and two versions, a Markdown template with two versions, stored renders, a batch, an office
// conversion when LibreOffice is installed) and saves a screenshot of every screen at 1400 and
// 1024 px wide into test-results/screens/. Run: node --import tsx scripts/screens.ts [--keep]
// (--keep leaves the server running and prints its address and admin token).

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { startTestServer, bearer, type TestServer } from '../tests/helpers/start-app.ts';
import { officeMissing } from '../tests/helpers/office-available.ts';
import { chapters } from '../tests/helpers/office-fixtures.ts';

const keep = process.argv.includes('--keep');
const folder = path.join('test-results', 'screens');
const cleanups: (() => Promise<void>)[] = [];

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  const answered = await response;
  if (!answered.ok) throw new Error(`${answered.url} answered ${answered.status}: ${await answered.text()}`);
  return (await answered.json()) as T;
}

/** Fills the server: returns the ids the screenshots open. */
async function seed(quire: TestServer): Promise<{ htmlTemplate: string; markdownTemplate: string }> {
  const billing = await quire.createKey('business', { name: 'Billing service', auto_store: true });
  await quire.createKey('starter', { name: 'Marketing site' });
  await quire.admin('PATCH', `/admin/v1/keys/${billing.id}`, { receipts: 'all' });
  const auth = bearer(billing);

  const invoice = await json<{ template_id: string }>(
    quire.request(
      'POST',
      '/v1/templates',
      {
        name: 'Invoice',
        html: '<link rel="stylesheet" href="style.css"><h1>Invoice {{number}}</h1><p>{{customer}}</p>',
        sample_data: { number: 'F-1', customer: 'Ada' },
      },
      auth,
    ),
  );
  await quire.request('PUT', `/v1/templates/${invoice.template_id}/assets/style.css`, 'h1 { color: #334; }', { ...auth, 'content-type': 'text/css' });
  await quire.request(
    'PUT',
    `/v1/templates/${invoice.template_id}`,
    {
      name: 'Invoice',
      html: '<link rel="stylesheet" href="style.css"><h1>Invoice No. {{number}}</h1><p>For {{customer}}</p>',
      sample_data: { number: 'F-1', customer: 'Ada' },
    },
    auth,
  );
  const notes = await json<{ template_id: string }>(
    quire.request('POST', '/v1/templates', { name: 'Release notes', format: 'markdown', html: '# Notes {{v}}\n\n- one', sample_data: { v: '1.0' } }, auth),
  );
  await quire.request(
    'PUT',
    `/v1/templates/${notes.template_id}`,
    { name: 'Release notes', format: 'markdown', html: '# Release notes {{v}}\n\n| Item | State |\n|---|---|\n| Markdown | done |', sample_data: { v: '1.1' } },
    auth,
  );

  for (let n = 1; n <= 6; n += 1) {
    await quire.render({ html: `<h1>Report ${n}</h1>`, filename: `report-${n}.pdf`, store: true }, auth);
  }
  await quire.render({ template_id: invoice.template_id, data: { number: 'F-7', customer: 'Grace' }, store: true }, auth);
  await quire.render({ markdown: '# Readme\n\nText.', store: true }, auth);
  await quire.render({ url: 'http://10.0.0.1/' }, auth);

  const requests = Array.from({ length: 9 }, (_, at) => ({ html: `<h1>Letter ${at + 1}</h1>`, filename: `letter-${at + 1}.pdf` }));
  requests.push({ html: '<img src="http://10.0.0.1/x.png">', filename: 'blocked.pdf' });
  await json(
    quire.request('POST', '/v1/pdf/batch', { async: true, requests: [...requests, { url: 'http://10.0.0.1/', filename: 'private.pdf' } as never] }, auth),
  );

  if (officeMissing === false) {
    await quire.request(
      'POST',
      '/v1/convert/office',
      { file: Buffer.from(chapters(['Introduction', 'Methods'])).toString('base64'), filename: 'annual-report.odt', store: true },
      auth,
    );
  }
  return { htmlTemplate: invoice.template_id, markdownTemplate: notes.template_id };
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

const quire = await startTestServer({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, { playgroundRateLimit: 100 });
const ids = await seed(quire);
await mkdir(folder, { recursive: true });
const executable = await findChromium(process.env.CHROME_PATH ?? '');
const browser = await chromium.launch({ executablePath: executable.path, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice(7);
for (const width of [1400, 1024]) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB' });
  await context.addInitScript((token) => sessionStorage.setItem('quire.adminToken', token), quire.adminToken);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  const screens: [string, string, ((page: Page) => Promise<void>)?][] = [
    ['activity', '/admin/activity'],
    ['keys', '/admin/keys'],
    ['templates', '/admin/templates'],
    ['studio-html', `/admin/templates/${ids.htmlTemplate}`],
    ['studio-markdown', `/admin/templates/${ids.markdownTemplate}`],
    ['studio-header-footer', `/admin/templates/${ids.htmlTemplate}`, (p) => p.getByTestId('running-pane').locator('summary').click()],
    ['playground', '/admin/playground', (p) => p.getByText('Page options', { exact: true }).click()],
    ['playground-office', '/admin/playground', (p) => p.getByText('Office file', { exact: true }).click()],
    ['public-playground', '/playground'],
    ['documents', '/admin/documents'],
    ['batches', '/admin/batches', (p) => p.locator('.row-toggle').first().click()],
    ['pdf-tools', '/admin/pdf-tools'],
    // A broken invoice of the shared corpus beside the repository (issue 41), where it is checked out.
    [
      'einvoices',
      '/admin/einvoices',
      (p) =>
        p
          .getByTestId('einvoice-file')
          .setInputFiles(path.join(import.meta.dirname, '..', '..', 'shared', 'einvoice-corpus', 'broken', 'cii-br-co-10-line-total-mismatch.xml')),
    ],
    ['certificates', '/admin/certificates'],
    ['docs', '/docs'],
  ];
  for (const [name, address, act] of screens) {
    if (only && !name.includes(only)) continue;
    await page.goto(quire.url + address);
    await page.waitForTimeout(600);
    if (act) await act(page).catch((error) => console.error(`${name}: ${error}`));
    await page.waitForTimeout(1200);
    await shoot(page, `${name}-${width}`);
  }
  await context.close();
}
await browser.close();
console.log(`screenshots in ${folder}`);
if (keep) {
  console.log(`server ${quire.url} admin token ${quire.adminToken}`);
} else {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
