// The bench's three workloads, made here so every run measures the same pages:
// a one-line page, a realistic 1-2 page invoice (CSS, inline SVG, 30-row table), a 50-page report.

export interface Workload {
  name: string;
  html: string;
}

const LOGO_SVG = `<svg width="120" height="40" viewBox="0 0 120 40" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="40" height="40" rx="8" fill="#2f6fed"/><circle cx="20" cy="20" r="10" fill="#fff"/>
<text x="48" y="27" font-family="Arial" font-size="18" font-weight="bold" fill="#1d2433">ACME</text></svg>`;

export function invoiceHtml(rows = 30): string {
  const lines = Array.from({ length: rows }, (_, i) => {
    const qty = (i % 5) + 1;
    const price = 12.5 + i * 3.25;
    return `<tr><td>${i + 1}</td><td>Consulting service item ${i + 1} — implementation &amp; review</td><td class="n">${qty}</td><td class="n">${price.toFixed(2)}</td><td class="n">${(qty * price).toFixed(2)}</td></tr>`;
  }).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Invoice INV-2026-0042</title><style>
  body { font-family: Arial, Helvetica, sans-serif; color: #1d2433; font-size: 11pt; margin: 0; }
  header { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 3px solid #2f6fed; padding-bottom: 12px; }
  h1 { font-size: 22pt; margin: 0 0 4px; letter-spacing: 0.02em; }
  .meta { text-align: right; color: #5b6475; }
  .parties { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; margin: 20px 0; }
  .box { background: #f3f6fc; border-radius: 6px; padding: 10px 14px; }
  table { width: 100%; border-collapse: collapse; margin-top: 8px; }
  th { background: #1d2433; color: #fff; text-align: left; padding: 6px 8px; font-weight: 600; }
  td { padding: 6px 8px; border-bottom: 1px solid #e1e6ef; }
  tr:nth-child(even) td { background: #fafbfe; }
  .n { text-align: right; font-variant-numeric: tabular-nums; }
  .total { margin-top: 16px; margin-left: auto; width: 40%; }
  .total div { display: flex; justify-content: space-between; padding: 4px 0; }
  .total .grand { font-size: 14pt; font-weight: bold; border-top: 2px solid #1d2433; }
  footer { margin-top: 32px; color: #5b6475; font-size: 9pt; }
  </style></head><body>
  <header><div>${LOGO_SVG}<h1>Invoice</h1><div>INV-2026-0042</div></div>
  <div class="meta">Issued 21 November 2026<br>Due 21 December 2026<br>Net 30</div></header>
  <section class="parties"><div class="box"><strong>From</strong><br>ACME Consulting GmbH<br>Hauptstraße 1<br>10115 Berlin</div>
  <div class="box"><strong>Bill to</strong><br>Globex Corporation<br>1 Infinite Loop<br>Springfield</div></section>
  <table><thead><tr><th>#</th><th>Description</th><th class="n">Qty</th><th class="n">Price</th><th class="n">Amount</th></tr></thead>
  <tbody>${lines}</tbody></table>
  <div class="total"><div><span>Subtotal</span><span>4,812.50</span></div><div><span>VAT 19%</span><span>914.38</span></div>
  <div class="grand"><span>Total</span><span>EUR 5,726.88</span></div></div>
  <footer>Thank you for your business. Payment by bank transfer to DE89 3704 0044 0532 0130 00.</footer>
  </body></html>`;
}

export function reportHtml(pages = 50): string {
  const paragraph =
    'The quarterly figures show steady growth across every region, with operating costs held flat and the ' +
    'new product line contributing a larger share of revenue than forecast. Further detail follows in the tables. ';
  const sections = Array.from({ length: pages }, (_, i) => {
    const rows = Array.from(
      { length: 8 },
      (_, r) => `<tr><td>Region ${r + 1}</td><td>${(1000 + i * 17 + r * 31).toLocaleString('en')}</td><td>${((i + r) % 9) + 1}.${r}%</td></tr>`,
    ).join('');
    return `<section><h2>Section ${i + 1}</h2><p>${paragraph.repeat(4)}</p><table><tr><th>Region</th><th>Revenue</th><th>Growth</th></tr>${rows}</table><p>${paragraph.repeat(2)}</p></section>`;
  }).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font-family: 'Times New Roman', serif; font-size: 11pt; line-height: 1.45; }
  section { page-break-after: always; } h2 { font-family: Arial, sans-serif; color: #2f3b52; }
  table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #ccd; padding: 4px 6px; }
  </style></head><body>${sections}</body></html>`;
}

export const WORKLOADS: Workload[] = [
  { name: 'tiny', html: '<!doctype html><p>Hello, world.</p>' },
  { name: 'invoice', html: invoiceHtml() },
  { name: 'report', html: reportHtml() },
];

/**
 * A README-sized Markdown page (about 7 KB): headings, paragraphs, lists, a
 * task list, a table, a footnote and eight fenced code blocks in five languages.
 */
export function readmeMarkdown(): string {
  const code: [string, string][] = [
    [
      'bash',
      'npm run setup && npm start\ncurl -s http://127.0.0.1:3000/v1/pdf -H "Authorization: Bearer $KEY" \\\n  -d \'{"markdown":"# Hello"}\' -o hello.pdf',
    ],
    [
      'js',
      "import { readFile } from 'node:fs/promises';\n\nconst markdown = await readFile('README.md', 'utf8');\nconst response = await fetch(base + '/v1/pdf', {\n  method: 'POST',\n  headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },\n  body: JSON.stringify({ markdown, options: { outline: true } }),\n});\nif (!response.ok) throw new Error(await response.text());",
    ],
    [
      'ts',
      'export interface Plan {\n  id: string;\n  monthlyDocuments: number;\n  retention: string;\n}\n\nexport function isOver(plan: Plan, used: number): boolean {\n  return used >= plan.monthlyDocuments; // the allowance is a hard limit\n}',
    ],
    ['json', '{\n  "id": "starter",\n  "name": "Starter",\n  "monthly_documents": 1000,\n  "retention": "30d",\n  "batch_max_items": 10\n}'],
    [
      'python',
      'import requests\n\nfor name in ["a.md", "b.md"]:\n    with open(name) as f:\n        r = requests.post(URL, json={"markdown": f.read()}, headers=HEADERS)\n    r.raise_for_status()\n    open(name.replace(".md", ".pdf"), "wb").write(r.content)',
    ],
  ];
  const paragraph =
    'Quire turns **HTML**, public URLs, stored templates and *Markdown* into PDFs with a real Chromium, behind a local HTTP API with ' +
    'API keys, monthly quotas per plan and an admin window. See [the API](https://example.com/docs) or `GET /openapi.json`.';
  const sections = Array.from({ length: 8 }, (_, i) => {
    const [language, body] = code[i % code.length]!;
    return [
      `## Section ${i + 1}: ${['Install', 'Render', 'Plans', 'Configuration', 'Batches', 'Templates', 'Desktop app', 'Limits'][i]}`,
      '',
      paragraph,
      '',
      `- first point of section ${i + 1}\n- second point with \`inline code\`\n  - a nested point\n- third point ~~struck~~`,
      '',
      `\`\`\`${language}\n${body}\n\`\`\``,
      '',
      `> A note for section ${i + 1}: ${paragraph.slice(0, 120)}`,
      '',
    ].join('\n');
  });
  const table = [
    '| plan | documents | retention | batch |',
    '|---|---:|---|---:|',
    ...['free', 'starter', 'growth', 'scale', 'business'].map(
      (plan, i) => `| ${plan} | ${[100, 1000, 10000, 50000, 250000][i]} | ${['1d', '30d', '1y', '2y', '2y'][i]} | ${[0, 10, 50, 100, 250][i]} |`,
    ),
  ];
  return [
    '# Quire',
    '',
    `${paragraph}[^1]`,
    '',
    '- [x] HTML, URLs and templates',
    '- [x] Markdown',
    '- [ ] everything else',
    '',
    ...table,
    '',
    ...sections,
    '[^1]: Measured on a 2-core machine.',
    '',
  ].join('\n');
}
