// Extra bench sections beside the render table: what metering adds per render as the number of
// keys grows, and what storing a copy and listing a page cost as stored documents grow (both
// must stay flat), what the network guard costs (on vs off, same run), and what a background
// batch achieves beside the engine limit, keyed throughput beside a hostile playground
// neighbour, and what the PDF toolbox (metadata, outline, encrypt, watermark, merge) costs
// beside a plain render, office conversions on the warm LibreOffice pool beside soffice
// started per file, a Markdown page beside the same page as HTML, and headers and footers with an
// image beside Chromium's own templates, PDF/A beside plain renders, and an invoice as a Factur-X
// e-invoice beside it plain, PDF pages to images beside pdftoppm, and a 40-page report with a table of
// contents beside it without. Later features add theirs here.

import type { ServiceProcess } from './service-process.ts';
import { measureMetering } from './metering.ts';
import { measureGuard } from './guard.ts';
import { documentsTable, measureDocuments } from './documents.ts';
import { measureBatch } from './batch.ts';
import { startupTable } from './startup.ts';
import { measureHostileNeighbour } from './hostile.ts';
import { measureToolbox } from './toolbox.ts';
import { measureReceipts } from './receipts.ts';
import { measureHeaders } from './headers.ts';
import { measureOffice } from './office.ts';
import { measureWordTemplates } from './word-templates.ts';
import { measureMarkdown } from './markdown.ts';
import { measurePdfA } from './pdf-a.ts';
import { measureEInvoice } from './e-invoice.ts';
import { measurePdfImages } from './pdf-images.ts';
import { measureToc } from './toc.ts';

export async function runExtras(service: ServiceProcess): Promise<string> {
  const rows = ['| keys on file | key lookup ms (p50 / p95) | reserve + persist ms (p50 / p95) |', '|---|---|---|'];
  for (const keys of [0, 1_000, 10_000]) {
    const figures = await measureMetering(keys);
    rows.push(
      `| ${keys.toLocaleString('en')} | ${figures.lookup.p50.toFixed(2)} / ${figures.lookup.p95.toFixed(2)} | ${figures.reservePersist.p50.toFixed(2)} / ${figures.reservePersist.p95.toFixed(2)} |`,
    );
  }
  const documents = documentsTable(await measureDocuments());
  const guard = await measureGuard();
  const batch = await measureBatch();
  const hostile = await measureHostileNeighbour();
  const startup = await startupTable();
  const toolbox = await measureToolbox(service);
  const office = await measureOffice(service);
  const word = await measureWordTemplates(service);
  const markdown = await measureMarkdown(service);
  const headers = await measureHeaders(service);
  const receipts = await measureReceipts(service);
  const pdfA = await measurePdfA(service);
  const eInvoice = await measureEInvoice(service);
  const pdfImages = await measurePdfImages(service);
  const toc = await measureToc(service);
  return `Metering cost per render\n\n${rows.join('\n')}\n\nStored documents: store step and page listing\n\n${documents}\n\n${guard}\n\n${batch}\n\n${hostile}\n\n${startup}\n\n${toolbox}\n\n${office}\n\n${word}\n\n${markdown}\n\n${headers}\n\n${receipts}\n\n${pdfA}\n\n${eInvoice}\n\n${pdfImages}\n\n${toc}`;
}
