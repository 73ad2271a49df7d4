// The drawers of <quire-barcode> (bwip-js) and <quire-chart> (ECharts' server-side SVG): the frame
// they put around a drawing (size, passed-through attributes, accessible name, escaping), the
// option's data references and bounds, and every refusal naming its attribute. Decoding what
// prints is tests/api/barcodes.test.ts; charts in the PDF, tests/api/charts.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawBarcode } from '../../../../server/src/render/quire-elements/barcode.ts';
import { CHART_LIMITS, drawChart } from '../../../../server/src/render/quire-elements/chart.ts';
import { ElementAttributeError } from '../../../../server/src/render/quire-elements/errors.ts';

const refusal = (attribute: string, reason: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ElementAttributeError, String(error));
  assert.equal(error.attribute, attribute);
  assert.match(error.reason, reason);
  return true;
};

const rootOf = (svg: string) => /^<svg[^>]*>/.exec(svg)![0];

test('a barcode is an <svg> of paths at its natural size, or the size asked, with its attributes escaped', async () => {
  const natural = rootOf(await drawBarcode({ type: 'ean13', data: '5901234123457' }));
  // bwip-js draws an EAN-13 at 1 pt per module at scale 1: 95 modules and the quiet zones.
  assert.match(natural, /width="[\d.]+px" height="[\d.]+px" role="img" aria-label="EAN-13: 5901234123457"/);
  const svg = await drawBarcode({ type: 'qrcode', data: 'x', width: '30mm', class: 'a" onload="x()', alt: '<b>Pay</b>', 'aria-describedby': 'n' });
  const root = rootOf(svg);
  assert.match(root, /width="113.39px" height="113.39px"/, 'a square code keeps its proportions');
  assert.match(root, /class="a&#34; onload=&#34;x\(\)"/);
  assert.match(root, /aria-label="&#60;b&#62;Pay&#60;\/b&#62;"/);
  assert.match(root, /aria-describedby="n"/);
  assert.doesNotMatch(svg, /<text|<image/, 'text below the bars is drawn as paths, and nothing is fetched');
  const doubled = rootOf(await drawBarcode({ type: 'ean13', data: '5901234123457', scale: '2' }));
  const widthOf = (tag: string) => Number(/width="([\d.]+)px"/.exec(tag)![1]);
  assert.equal(widthOf(doubled), widthOf(natural) * 2);
});

test('a barcode refuses what its symbology or the element does not take, naming the attribute', async () => {
  await assert.rejects(drawBarcode({ data: '1' }), refusal('type', /is required/));
  await assert.rejects(drawBarcode({ type: 'qrcode' }), refusal('data', /is required/));
  await assert.rejects(drawBarcode({ type: 'upca', data: '12345' }), refusal('data', /not a valid UPC-A: UPC-A must be 11 or 12 digits/));
  await assert.rejects(drawBarcode({ type: 'code128', data: 'x'.repeat(7090) }), refusal('data', /at most 7089/));
  await assert.rejects(drawBarcode({ type: 'qrcode', data: 'x', text: 'true' }), refusal('text', /code128, ean13, upca only/));
  await assert.rejects(drawBarcode({ type: 'code128', data: 'x', text: 'yes' }), refusal('text', /one of true, false/));
  await assert.rejects(drawBarcode({ type: 'datamatrix', data: 'x', 'bar-height': '10' }), refusal('bar-height', /only/));
  await assert.rejects(drawBarcode({ type: 'qrcode', data: 'x', 'ec-level': 'Z' }), refusal('ec-level', /one of L, M, Q, H/));
  await assert.rejects(drawBarcode({ type: 'pdf417', data: 'x', 'ec-level': '9' }), refusal('ec-level', /0 to 8/));
  await assert.rejects(drawBarcode({ type: 'qrcode', data: 'x', scale: '0' }), refusal('scale', /from 0.25 to 20/));
  await assert.rejects(drawBarcode({ type: 'qrcode', data: 'x', width: '50%' }), refusal('width', /absolute CSS length/));
  await assert.rejects(drawBarcode({ type: 'qrcode', data: 'x', onload: 'x()' }), refusal('onload', /not an attribute/));
});

const BAR = { xAxis: { type: 'category', data: ['North', 'South'] }, yAxis: { type: 'value' }, series: [{ type: 'bar', data: [3, 5] }] };

test('bar, line and pie charts are SVG with their labels as text in the page font, sized as asked', async () => {
  const bar = await drawChart({ attributes: { width: '120mm', height: '60mm' }, content: JSON.stringify({ title: { text: 'Sales' }, ...BAR }) });
  assert.match(rootOf(bar), /width="453.54px" height="226.77px" role="img" aria-label="Sales"/);
  assert.match(bar, /<text[^>]*font-family:inherit[^>]*>North<\/text>/);
  const line = await drawChart({
    attributes: { option: JSON.stringify({ ...BAR, textStyle: { fontSize: 14 }, series: [{ type: 'line', data: [3, 5] }] }) },
    content: '',
  });
  assert.match(line, /<text[^>]*font-family:inherit[^>]*>South<\/text>/, 'a textStyle of the option keeps the page font unless it names one');
  const pie = await drawChart({
    attributes: {},
    content: JSON.stringify({
      series: [
        {
          type: 'pie',
          label: { show: true },
          data: [
            { name: 'Tea', value: 2 },
            { name: 'Coffee', value: 3 },
          ],
        },
      ],
    }),
  });
  assert.match(pie, />Coffee<\/text>/);
  assert.match(rootOf(pie), /aria-label="Chart"/);
});

test('{"$data": path} takes a value from the template data; what the data holds is not looked up again', async () => {
  const data = { sales: { regions: ['East<b>', 'West'], totals: [1, 2] }, title: { text: 'T', subtext: { $data: 'nowhere' } } };
  const svg = await drawChart({
    attributes: {
      'data-option': JSON.stringify({
        ...BAR,
        xAxis: { type: 'category', data: { $data: 'sales.regions' } },
        series: [{ type: 'bar', data: { $data: 'sales.totals' } }],
      }),
    },
    content: '',
    data,
  });
  assert.match(svg, />East&lt;b&gt;<\/text>/, 'labels from data are escaped by ECharts');
  // Were the data's own "$data" looked up, "nowhere" would be refused.
  await drawChart({ attributes: {}, content: '{"title": {"$data": "title"}}', data });
  await assert.rejects(
    drawChart({ attributes: {}, content: '{"series": {"$data": "nowhere"}}', data }),
    refusal('content', /"nowhere", which the template data does not have/),
  );
  await assert.rejects(drawChart({ attributes: {}, content: '{"series": {"$data": "__proto__"}}', data: {} }), refusal('content', /does not have/));
});

test('a chart refuses an option that is not a JSON object or is over its bounds, naming where it was written', async () => {
  await assert.rejects(drawChart({ attributes: {}, content: '  ' }), refusal('content', /is empty/));
  await assert.rejects(drawChart({ attributes: { option: '{x' }, content: '' }), refusal('option', /not an ECharts option in JSON/));
  await assert.rejects(drawChart({ attributes: {}, content: '[1]' }), refusal('content', /must be a JSON object/));
  const many = JSON.stringify({ series: [{ type: 'line', data: Array.from({ length: CHART_LIMITS.values }, (_, i) => i) }] });
  await assert.rejects(drawChart({ attributes: {}, content: many }), refusal('content', /more than 20,000 values/));
  await assert.rejects(drawChart({ attributes: {}, content: `{"a":"${'x'.repeat(CHART_LIMITS.optionBytes)}"}` }), refusal('content', /larger than 256 KB/));
  await assert.rejects(drawChart({ attributes: {}, content: `${'['.repeat(30)}${']'.repeat(30)}` }), refusal('content', /nests deeper than 24/));
  await assert.rejects(drawChart({ attributes: { type: 'bar' }, content: '{}' }), refusal('type', /not an attribute/));
});

test('an option that takes ECharts seconds and tens of MB is drawn off the event loop and refused', async () => {
  // A pictorial bar repeating a tiny symbol up to 1e9: about 35 MB of SVG, seconds of CPU.
  const heavy = {
    xAxis: { type: 'category', data: ['a'] },
    yAxis: { type: 'value' },
    series: [{ type: 'pictorialBar', symbolRepeat: true, symbolSize: [0.001, 0.001], data: [1e9] }],
  };
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    await assert.rejects(
      drawChart({ attributes: { option: JSON.stringify(heavy) }, content: '' }),
      refusal('option', /more than 5 MB of SVG|took more than 10 s to draw/),
    );
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 0, 'the event loop ran while the chart was drawn');
});
