// Shared by tests/api/office*.test.ts: a converting call, the link and macro safety proofs, the
// office pool's restart count, and the small hostile files (a tiny PNG, a zip bomb).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import path from 'node:path';
import { bearer, type TestServer } from './start-app.ts';
import { embeddedImages, inspectPdf } from './pdf.ts';
import { startRecordingServer } from './canary.ts';
import { base64, docx, externalRel, linkedPicture, odf } from './office-fixtures.ts';

export const PASSWD_LINE = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!.split(':')[0]!;

export const threePages = docx([['Page one heading', 'First page text'], ['Second page text'], ['Third page text']]);

export async function convert(server: TestServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await server.request('POST', '/v1/convert/office', body, headers);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, status: response.status, text: () => Buffer.from(bytes).toString('utf8') };
}

/** Converts documents whose links point at the canary, a private address and /etc/passwd, and one with a macro bound to its opening. */
export async function checkLinksAndMacros(t: { after(fn: () => Promise<void>): void }, server: TestServer): Promise<void> {
  const canary = await startRecordingServer();
  t.after(() => canary.close());
  // A real image on this machine: a linked picture must not bring its pixels into the PDF.
  const local = await mkdtemp(path.join(os.tmpdir(), 'quire-office-local-'));
  t.after(() => rm(local, { recursive: true, force: true }));
  await writeFile(path.join(local, 'secret.png'), tinyPng());
  const targets = [`${canary.url}/image.png`, 'http://10.20.30.40/private.png', 'file:///etc/passwd', `file://${local}/secret.png`];
  const linkedDocx = docx([['Links below']], {
    body:
      targets.map((_, index) => linkedPicture(`rIdL${index}`, index + 10)).join('') +
      `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDETEXT "/etc/passwd" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached include</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
    rels: targets.map((target, index) => externalRel(`rIdL${index}`, target)).join(''),
  });
  const linkedOdt = odf(
    'text',
    `<text:p>Sections below</text:p><text:section text:name="Passwd"><text:section-source xlink:href="file:///etc/passwd" xlink:type="simple" text:filter-name="Text"/><text:p>cached section</text:p></text:section>` +
      `<text:section text:name="Remote"><text:section-source xlink:href="${canary.url}/section.txt" xlink:type="simple" text:filter-name="Text"/><text:p>cached remote</text:p></text:section>` +
      `<text:p><draw:frame draw:name="img" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${canary.url}/odt.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`,
  );
  const linkedOds = odf(
    'spreadsheet',
    `<table:table table:name="Sheet1"><table:table-row>` +
      `<table:table-cell table:formula="of:=WEBSERVICE(&quot;${canary.url}/webservice&quot;)" office:value-type="string" office:string-value="cached ws"><text:p>cached ws</text:p></table:table-cell>` +
      `<table:table-cell table:formula="of:=['file:///etc/passwd'#$Sheet1.A1]" office:value-type="string" office:string-value="cached ref"><text:p>cached ref</text:p></table:table-cell>` +
      `</table:table-row></table:table>`,
  );
  const macroOdt = odf('text', '<text:p>Before any macro</text:p>', {
    head: `<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" script:event-name="dom:load" xlink:href="vnd.sun.star.script:Standard.Module1.Boom?language=Basic&amp;location=document" xlink:type="simple"/></office:event-listeners></office:scripts>`,
    files: {
      'Basic/script-lc.xml': `<?xml version="1.0" encoding="UTF-8"?><library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink"><library:library library:name="Standard" library:link="false"/></library:libraries>`,
      'Basic/Standard/script-lb.xml': `<?xml version="1.0" encoding="UTF-8"?><library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false"><library:element library:name="Module1"/></library:library>`,
      'Basic/Standard/Module1.xml': `<?xml version="1.0" encoding="UTF-8"?><script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">Sub Boom
ThisComponent.getText().setString("MACRO RAN")
End Sub
</script:module>`,
    },
  });
  const results: string[] = [];
  const images: number[] = [];
  for (const [file, filename] of [
    [linkedDocx, 'links.docx'],
    [linkedOdt, 'links.odt'],
    [linkedOds, 'links.ods'],
    [macroOdt, 'macro.odt'],
  ] as const) {
    const { status, bytes, text } = await convert(server, { file: base64(file), filename });
    assert.equal(status, 200, `${filename}: ${text()}`);
    results.push((await inspectPdf(bytes)).text);
    images.push((await embeddedImages(bytes)).length);
  }
  assert.equal(canary.connections, 0, `the canary was reached: ${canary.hits.join(', ')}`);
  for (const text of results) assert.ok(!text.includes(`${PASSWD_LINE}:x:0:0`) && !text.includes('/bin/'), `no /etc/passwd content: ${text}`);
  assert.deepEqual(images, [0, 0, 0, 0], 'no linked picture was fetched, from the network or from the disk');
  assert.match(results[1]!, /cached section/);
  assert.match(results[2]!, /cached ws/);
  assert.match(results[3]!, /Before any macro/);
  assert.doesNotMatch(results[3]!, /MACRO RAN/);
}

/**
 * POST /v1/convert/office on a connection of its own: calls that overlap a long upload never share
 * a kept-alive socket that the server may be closing as idle.
 */
export function postOnNewConnection(server: TestServer, body: unknown): Promise<Response> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL('/v1/convert/office', server.url),
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...bearer(server.key) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = Object.entries(response.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
          resolve(new Response(Buffer.concat(chunks), { status: response.statusCode, headers }));
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export async function officeRestarts(server: TestServer): Promise<number> {
  const health = (await (await server.requestWithoutKey('GET', '/health')).json()) as { office: { restarts: number } };
  return health.office.restarts;
}

export function hasJobFile(server: TestServer): boolean {
  const dir = `${server.dataDir}/office`;
  // A CSV is handed over under the upload's name (its sheet's name), other kinds as input.<kind>.
  return readdirSync(dir).some((name) => name.startsWith('job-') && filesIn(`${dir}/${name}`).some((file) => file.endsWith('.csv')));
}

/** A folder's entries, none when it is gone (a job folder is removed when its conversion ends). */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A 20 x 20 red PNG. */
export function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20, 0);
  header.writeUInt32BE(20, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 20 }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(60, Buffer.from([255, 0, 0]))])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** A docx whose zip directory promises far more than the cap (the entries are never unpacked). */
export function zipBomb(): Uint8Array {
  const bytes = Buffer.from(docx([['bomb']]));
  // Raise each central directory entry's uncompressed size to 200 MB.
  for (let at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    bytes.writeUInt32LE(200 * 1024 * 1024, at + 24);
  }
  return bytes;
}
