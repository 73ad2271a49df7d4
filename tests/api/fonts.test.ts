// Fonts, checked by what the PDF embeds, not only by its text: Latin and accented text in the
// metric twins of Arial and Times, CJK in a real CJK font, emoji as colour glyphs, and an
// operator's own font from FONTS_DIR.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../helpers/start-app.ts';
import { hasBitmapGlyphs, inspectPdf } from '../helpers/pdf.ts';
import { openSansFromSparticuz } from '../helpers/open-sans.ts';

async function renderPdf(server: Awaited<ReturnType<typeof startTestServer>>, html: string): Promise<Uint8Array> {
  const response = await server.render({ html, options: { wait_until: 'load' } });
  assert.equal(response.status, 200);
  return new Uint8Array(await response.arrayBuffer());
}

test('Latin and accented text embed Liberation fonts in place of Arial and Times', async (t) => {
  const server = await startTestServer(t);
  const pdf = await inspectPdf(
    await renderPdf(server, '<p style="font-family: Arial">Arial façade naïve Ærø</p><p style="font-family: \'Times New Roman\'">Times crème brûlée</p>'),
  );
  const names = pdf.fonts.map((font) => font.name);
  assert.ok(
    names.some((name) => name.startsWith('LiberationSans')),
    names.join(', '),
  );
  assert.ok(
    names.some((name) => name.startsWith('LiberationSerif')),
    names.join(', '),
  );
  assert.match(pdf.text, /façade naïve Ærø/);
  assert.match(pdf.text, /crème brûlée/);
});

test('Chinese, Japanese and Korean text embed a CJK font with real glyphs', async (t) => {
  const server = await startTestServer(t);
  const pdf = await inspectPdf(await renderPdf(server, '<p>中文 日本語 かな 한국어</p>'));
  const cjk = pdf.fonts.filter((font) => /WenQuanYi|Noto.*CJK|Droid.*Fallback|IPA|Nanum/i.test(font.name));
  assert.ok(cjk.length > 0, `no CJK font embedded: ${pdf.fonts.map((font) => font.name).join(', ')}`);
  assert.match(pdf.text.replace(/\s/g, ''), /中文日本語かな한국어/);
});

test('emoji render as colour glyphs', async (t) => {
  const server = await startTestServer(t);
  const bytes = await renderPdf(server, '<p>Party 🎉 and thumbs 👍</p>');
  assert.ok(await hasBitmapGlyphs(bytes), 'emoji are drawn from a colour (bitmap) font');
});

test('FONTS_DIR makes an operator font available to every render', async (t) => {
  // Open Sans is not installed on the machine: it comes from a folder we hand to FONTS_DIR.
  const fontsDir = await mkdtemp(path.join(os.tmpdir(), 'quire-fonts-'));
  t.after(() => rm(fontsDir, { recursive: true, force: true }));
  await writeFile(path.join(fontsDir, 'OpenSans-Regular.ttf'), await openSansFromSparticuz());
  const html = '<p style="font-family: \'Open Sans\'">Operator font</p>';

  const withFonts = await startTestServer(t, { fontsDir });
  const names = (await inspectPdf(await renderPdf(withFonts, html))).fonts.map((font) => font.name);
  assert.ok(
    names.some((name) => name.startsWith('OpenSans')),
    names.join(', '),
  );

  const without = await startTestServer(t);
  const fallback = (await inspectPdf(await renderPdf(without, html))).fonts.map((font) => font.name);
  assert.ok(!fallback.some((name) => name.startsWith('OpenSans')), 'without FONTS_DIR the font is not there');
});
