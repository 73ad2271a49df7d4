// <quire-chart> on a real Chromium, checked in the printed PDF (docs/api.md#barcodes-and-charts):
// a template's bar, line and pie charts filled from its data print their labels as text (pdftotext),
// in the page's font and never as outlines (pdffonts), with no raster image (pdfimages); Markdown takes one too; an option
// that is not JSON is a 400 element_invalid, uncharged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, usageOf } from '../helpers/start-app.ts';
import { imagesOf, pageTexts } from '../helpers/pdf-cli.ts';
import { fontsOf } from '../helpers/pdf-a-tools.ts';

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  return bytes;
}

// A report template: the layout of each chart in the template, its numbers from the data.
const REPORT = `<!doctype html><html><body style="font-family: 'Liberation Mono'; margin: 15mm">
<h1>Quarter {{quarter}}</h1>
<quire-chart width="170mm" height="70mm">
{"title": {"text": "Revenue by region"}, "xAxis": {"type": "category", "data": {"$data": "regions"}},
 "yAxis": {"type": "value"}, "series": [{"type": "bar", "data": {"$data": "revenue"}}]}
</quire-chart>
<quire-chart width="170mm" height="70mm" option='{"xAxis": {"type": "category", "data": ["Week01", "Week02", "Week03"]}, "yAxis": {"type": "value"}, "series": [{"type": "line", "data": [4, 9, 7]}]}'></quire-chart>
<quire-chart width="120mm" height="70mm">
{"series": [{"type": "pie", "label": {"show": true}, "data": [{"name": "{{first.name}}", "value": 60}, {"name": "Others", "value": 40}]}]}
</quire-chart>
</body></html>`;

test('quire-chart', async (t) => {
  const server = await startTestServer(t);

  await t.test('a template draws bar, line and pie charts from its data: text in the PDF, in the page font, no raster', async () => {
    const created = await server.request('POST', '/v1/templates', { name: 'quarterly report', html: REPORT });
    assert.equal(created.status, 201);
    const { template_id } = (await created.json()) as { template_id: string };
    const data = { quarter: 'Q3', regions: ['Nordland', 'Sudmark', 'Westfold'], revenue: [120, 80, 95], first: { name: 'Ada & Co' } };
    const pdf = await pdfOf(await server.render({ template_id, data }));
    const text = pageTexts(pdf).join('\n');
    for (const label of ['Quarter Q3', 'Revenue by region', 'Nordland', 'Sudmark', 'Westfold', 'Week01', 'Week03', 'Ada & Co', 'Others'])
      assert.ok(text.includes(label), `${label} is text in the PDF:\n${text}`);
    assert.match(text, /\b120\b/, 'the value axis is labelled');
    assert.deepEqual(imagesOf(pdf), [], 'the charts are vectors: no raster image');
    const fonts = fontsOf(pdf).map((font) => font.name);
    // A pie label's white halo would print as a Type 3 font of outlines ("[none]"): the halos are taken off.
    assert.ok(
      fonts.every((name) => /LiberationMono/.test(name)),
      `the labels are in the page's font (font-family: inherit), not the chart's default sans-serif, and not outlines: ${fonts}`,
    );
  });

  await t.test('Markdown takes a chart as raw HTML', async () => {
    const option = JSON.stringify({ xAxis: { type: 'category', data: ['Alpha', 'Beta'] }, yAxis: { type: 'value' }, series: [{ type: 'bar', data: [1, 2] }] });
    const pdf = await pdfOf(await server.render({ markdown: `# Figures\n\n<quire-chart height="60mm">\n${option}\n</quire-chart>\n\nAfter the chart.` }));
    const [page] = pageTexts(pdf);
    assert.match(page!, /Alpha[\s\S]*Beta/);
    assert.match(page!, /After the chart\./);
  });

  await t.test('an option that is not JSON is 400 element_invalid naming the element and its content, uncharged', async () => {
    const before = await usageOf(server);
    const response = await server.render({ html: '<h1>x</h1>\n<quire-chart>{"series": [</quire-chart>' });
    const body = (await response.json()) as { code: string; detail: string; element: string; line: number; attribute: string };
    assert.equal(response.status, 400, body.detail);
    assert.deepEqual([body.code, body.element, body.line, body.attribute], ['element_invalid', 'quire-chart', 2, 'content']);
    assert.match(body.detail, /^<quire-chart> on line 2 of the document, its content: is not an ECharts option in JSON/);
    assert.equal(await usageOf(server), before);
  });
});
