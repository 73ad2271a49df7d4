// The office kinds the tests cannot write by hand: Word, Excel and PowerPoint 97-2003 (doc, xls,
// ppt: OLE compound files) and PowerPoint's pptx. They are made from our own OpenDocument fixtures
// by LibreOffice itself at the start of the test (one cold soffice per target format, on a profile
// of our own), then converted through POST /v1/convert/office and read back as PDFs. Also the
// file-kind sniffing (office/file-kinds.ts) refusing a legacy name on bytes of another kind.
// Without LibreOffice the test is skipped saying why, except in CI, where it runs and fails.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { officeInstall, officeTest } from '../helpers/needs-office.ts';
import { base64, chapters, docx, odf, odp } from '../helpers/office-fixtures.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { errorOf, startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';

const CFB = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ZIP = Buffer.from('504b0304', 'hex');

type Made = Record<'doc' | 'xls' | 'ppt' | 'pptx', Buffer>;

const name = 'doc, xls, ppt and pptx files made by LibreOffice from our OpenDocument fixtures convert to PDFs with their pages and text';
officeTest(name, { timeout: 300_000 }, async (t) => {
  // The server's own LibreOffice starts while ours makes the files.
  const [made, server] = await Promise.all([makeLegacyFiles(t, officeInstall().soffice), startTestServer(t, { officeWarmAtStart: true })]);

  await t.test('the made files are of the container their extension promises', () => {
    assert.deepEqual(
      Object.entries(made).map(([kind, bytes]) => [kind, bytes.subarray(0, 8).equals(CFB) ? 'cfb' : bytes.subarray(0, 4).equals(ZIP) ? 'zip' : 'other']),
      [
        ['doc', 'cfb'],
        ['xls', 'cfb'],
        ['ppt', 'cfb'],
        ['pptx', 'zip'],
      ],
    );
  });

  await t.test('a .doc becomes a 3-page portrait PDF, one chapter a page, charged one document', async () => {
    const before = await usageOf(server);
    const { response, pdf } = await convert(server, made.doc, 'chapters.doc');
    assert.match(response.headers.get('content-disposition') ?? '', /chapters\.pdf/);
    assert.equal(Number(response.headers.get('x-service-usage')), before + 1);
    assert.deepEqual(
      pdf.pages.map((page) => /Legacy chapter (\w+)/.exec(page.text)?.[1]),
      ['one', 'two', 'three'],
    );
    assert.match(pdf.pages[1]!.text, /Text of Legacy chapter two/);
    assert.ok(pdf.pages[0]!.height > pdf.pages[0]!.width, 'portrait');
  });

  await t.test('an .xls becomes one page per sheet with its cells', async () => {
    const { pdf } = await convert(server, made.xls, 'figures.xls');
    assert.equal(pdf.pages.length, 2, pdf.text);
    assert.match(pdf.pages[0]!.text, /Quarter.*Revenue/);
    assert.match(pdf.pages[0]!.text, /1234/);
    assert.match(pdf.pages[1]!.text, /Second sheet cell/);
  });

  for (const kind of ['ppt', 'pptx'] as const) {
    await t.test(`a .${kind} becomes one landscape page per slide`, async () => {
      const { pdf } = await convert(server, made[kind], `slides.${kind}`);
      assert.deepEqual(
        pdf.pages.map((page) => /Legacy slide (\w+)/.exec(page.text)?.[1]),
        ['one', 'two'],
      );
      assert.ok(
        pdf.pages.every((page) => page.width > page.height),
        'slides are wide',
      );
    });
  }

  await t.test('a legacy name on bytes of another kind is 422, an extension we do not take is 400, and nothing is charged', async () => {
    const before = await usageOf(server);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const wordZip = Buffer.from(docx([['A docx, not a doc']]));
    const cases: [Buffer, string, number, string, RegExp][] = [
      [wordZip, 'renamed.doc', 422, 'office_conversion_failed', /"renamed\.doc" is not a Word 97-2003 document: its content is a zip archive/],
      [png, 'photo.doc', 422, 'office_conversion_failed', /"photo\.doc" is not a Word 97-2003 document: its content is binary data/],
      [made.pptx, 'deck.xls', 422, 'office_conversion_failed', /"deck\.xls" is not an Excel 97-2003 workbook: its content is a zip archive/],
      [
        Buffer.from('Slide text as plain text\n'),
        'notes.ppt',
        422,
        'office_conversion_failed',
        /"notes\.ppt" is not a PowerPoint 97-2003 presentation: its content is plain text/,
      ],
      [png, 'photo.pptx', 422, 'office_conversion_failed', /"photo\.pptx" is not a PowerPoint presentation/],
      [made.ppt, 'show.pps', 400, 'unsupported_file_type', /"show\.pps" is not a file type we convert.*\.ppt, \.odp/],
      [made.doc, 'template.dot', 400, 'unsupported_file_type', /"template\.dot" is not a file type we convert/],
    ];
    for (const [bytes, filename, status, code, detail] of cases) {
      const error = await errorOf(await server.request('POST', '/v1/convert/office', { file: base64(bytes), filename }));
      assert.deepEqual([error.status, error.code], [status, code], `${filename}: ${error.detail}`);
      assert.match(error.detail, detail);
    }
    assert.equal(await usageOf(server), before, 'no refusal was charged');
  });
});

/** POST /v1/convert/office with one file; asserts 200 and reads the PDF. */
async function convert(server: TestServer, bytes: Buffer, filename: string) {
  const response = await server.request('POST', '/v1/convert/office', { file: base64(bytes), filename });
  const body = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `${filename}: ${Buffer.from(body).toString('utf8')}`);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  return { response, pdf: await inspectPdf(body) };
}

/**
 * doc from an odt of three chapters (one a page), xls from an ods of two sheets, ppt and pptx from
 * an odp of two slides: soffice --convert-to takes one target format a run, so four runs, one after
 * another on one profile of our own (the first creates it).
 */
async function makeLegacyFiles(t: { after(fn: () => Promise<void>): void }, soffice: string): Promise<Made> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-office-formats-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'out');
  await mkdir(out);
  await writeFile(path.join(dir, 'chapters.odt'), chapters(['Legacy chapter one', 'Legacy chapter two', 'Legacy chapter three']));
  await writeFile(
    path.join(dir, 'figures.ods'),
    ods([
      [
        'Figures',
        [
          ['Quarter', 'Revenue'],
          ['Q1', 1234],
        ],
      ],
      ['Notes', [['Second sheet cell']]],
    ]),
  );
  await writeFile(path.join(dir, 'slides.odp'), odp(['Legacy slide one', 'Legacy slide two']));
  const profile = pathToFileURL(path.join(dir, 'profile')).href;
  for (const [format, input] of [
    ['doc', 'chapters.odt'],
    ['xls', 'figures.ods'],
    ['ppt', 'slides.odp'],
    ['pptx', 'slides.odp'],
  ] as const) {
    await promisify(execFile)(
      soffice,
      [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', format, '--outdir', out, path.join(dir, input)],
      { timeout: 120_000 },
    );
  }
  const read = (file: string) => readFile(path.join(out, file));
  return { doc: await read('chapters.doc'), xls: await read('figures.xls'), ppt: await read('slides.ppt'), pptx: await read('slides.pptx') };
}

/** An ods with one table per sheet (strings as text cells, numbers as numbers). */
function ods(sheets: [string, (string | number)[][]][]): Uint8Array {
  const cell = (value: string | number) =>
    typeof value === 'number'
      ? `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`
      : `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;
  return odf(
    'spreadsheet',
    sheets
      .map(
        ([sheet, rows]) =>
          `<table:table table:name="${sheet}">${rows.map((row) => `<table:table-row>${row.map(cell).join('')}</table:table-row>`).join('')}</table:table>`,
      )
      .join(''),
  );
}
