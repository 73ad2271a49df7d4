// A chart in the template studio: a <quire-chart> whose labels and values come from the template's
// sample data is drawn on the server, and the studio's preview shows it: its labels in the PDF's
// text and its bars, in the option's colour, on the page (docs/api.md#barcodes-and-charts).

import { test, expect } from './fixtures.ts';

const CHART = `<h1>Sales by region</h1>
<quire-chart width="160mm" height="80mm">
{"color": ["#d0021b"], "xAxis": {"type": "category", "data": {"$data": "regions"}},
 "yAxis": {"type": "value"}, "series": [{"type": "bar", "data": {"$data": "totals"}}]}
</quire-chart>
`;

test('the studio previews a chart drawn from the sample data: labels in the text, bars on the page', async ({ admin: page, quire }) => {
  const key = await quire.createKey('starter');
  const sample_data = { regions: ['Nordland', 'Sudmark', 'Westfold'], totals: [12, 30, 21] };
  const created = await quire.admin('POST', '/admin/v1/templates', { key_id: key.id, name: 'Chart', html: CHART, sample_data });
  expect(created.status).toBe(201);
  const { template_id: id } = (await created.json()) as { template_id: string };
  await page.goto(`/admin/templates/${id}`);
  const text = page.getByTestId('pdf-text');
  for (const label of ['Sales by region', 'Nordland', 'Sudmark', 'Westfold', '30']) await expect(text).toContainText(label);
  // The bars are the option's red (#d0021b): count such pixels on the preview's first page.
  const redPixels = await page
    .locator('canvas.pdf-page')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! > 180 && data[i + 1]! < 60 && data[i + 2]! < 70) count++;
      return count;
    });
  expect(redPixels).toBeGreaterThan(1000);
});
