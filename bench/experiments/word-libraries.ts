// Experiment behind docs/decisions.md "Word templates: easy-template-x": fills the same invoice
// docx (placeholders, a 50-row table loop, a condition, a logo) with docxtemplater+pizzip and with
// easy-template-x, and reports fill time and what came out right. Run: npx tsx bench/experiments/word-libraries.ts

import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { MimeType, TemplateHandler } from 'easy-template-x';
import { unzipSync, strFromU8 } from 'fflate';
import { invoiceData, invoiceTemplate, pngDataUrl } from '../../tests/helpers/word-fixtures.ts';

const RUNS = Number(process.env.RUNS ?? 200);
const template = invoiceTemplate();
const logo = pngDataUrl();
const data = invoiceData(50);

function check(name: string, out: Uint8Array): void {
  const files = unzipSync(out);
  const xml = strFromU8(files['word/document.xml']!);
  const text = xml.replace(/<[^>]+>/g, '');
  const media = Object.keys(files).filter((file) => file.startsWith('word/media/'));
  console.log(
    `${name}: rows=${(xml.match(/<w:tr>|<w:tr /g) ?? []).length - 1} last=${text.includes('Widget 50')} nested=${text.includes('Acme Trading GmbH')} condition=${text.includes('Paid with thanks.')} leftover=${/[{}]/.test(text)} images=${media.length} bytes=${out.byteLength}`,
  );
}

async function time(name: string, fill: () => Promise<Uint8Array> | Uint8Array): Promise<void> {
  for (let i = 0; i < 20; i++) await fill();
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) await fill();
  console.log(`${name}: ${((performance.now() - start) / RUNS).toFixed(2)} ms per fill (${RUNS} runs)`);
  check(name, await fill());
}

const dtx = () => {
  const doc = new Docxtemplater(new PizZip(template), { paragraphLoop: true, linebreaks: true });
  doc.render({ ...data, logo: '(no image: the image module is paid)' });
  return doc.getZip().generate({ type: 'uint8array' }) as Uint8Array;
};
const handler = new TemplateHandler();
const etx = async () => {
  const source = Buffer.from(logo.split(',')[1]!, 'base64');
  return handler.process(Buffer.from(template), { ...data, logo: { _type: 'image', source, format: MimeType.Png, width: 60, height: 30 } });
};
await time('docxtemplater', dtx);
await time('easy-template-x', etx);
