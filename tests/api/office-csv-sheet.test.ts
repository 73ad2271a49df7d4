// Issue 39 item 18: a CSV converted through LibreOffice prints its sheet's name in the page header,
// and that name is the uploaded file's (without extension), or Sheet1 when the name leaves none,
// never the temporary file's "input": through POST /v1/convert/office and the admin preview, read
// back with pdftotext. Without LibreOffice the test is skipped saying why, except in CI.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { officeTest } from '../helpers/needs-office.ts';
import { base64 } from '../helpers/office-fixtures.ts';
import { startTestServer } from '../helpers/start-app.ts';

const CSV = base64(Buffer.from('name,city\nAda,London\nGrace,Arlington\n'));

function textOf(pdf: Uint8Array): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
}

officeTest('a CSV’s sheet is named after the uploaded file, or Sheet1, never "input"', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const cases: [string, string, RegExp][] = [
    ['/v1/convert/office', 'Quarterly sales.csv', /Quarterly sales/],
    ['/v1/convert/office', 'año: 2026.csv', /año_ 2026/],
    ['/v1/convert/office', '.csv', /Sheet1/],
    ['/admin/v1/convert/office/preview', 'preview-figures.csv', /preview-figures/],
  ];
  for (const [route, filename, sheet] of cases) {
    const response = route.startsWith('/admin')
      ? await server.admin('POST', route, { file: CSV, filename })
      : await server.request('POST', route, { file: CSV, filename });
    assert.equal(response.status, 200, `${filename}: ${response.status} ${response.status === 200 ? '' : await response.text()}`);
    const text = textOf(new Uint8Array(await response.arrayBuffer()));
    assert.match(text, /Grace\s+Arlington/, `${filename}: the cells are there`);
    assert.match(text, sheet, `${filename}: the sheet name is printed`);
    assert.doesNotMatch(text, /\binput\b/, `${filename}: not the temporary name`);
  }
});
