// Reads PDF/A files with tools other than the code under test: poppler (pdfinfo -meta, pdffonts,
// pdftotext), qpdf's JSON, Apache PDFBox Preflight (PDF/A-1b, Debian libpdfbox2-java) and veraPDF
// where a VERAPDF command is given. Each writes the bytes to a temporary file first.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function withFile<T>(bytes: Uint8Array, use: (file: string) => T): T {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-pdfa-test-'));
  try {
    const file = path.join(folder, 'file.pdf');
    writeFileSync(file, bytes);
    return use(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** pdfaid:part and conformance as pdfinfo -meta prints the XMP. */
export function pdfaIdOf(bytes: Uint8Array): { part?: string; conformance?: string; xmp: string } {
  const xmp = withFile(bytes, (file) => execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8', maxBuffer: 16 << 20 }));
  const value = (name: string) => new RegExp(`pdfaid:${name}(?:>|\\s*=\\s*["'])\\s*([^<"']+)`).exec(xmp)?.[1]?.trim();
  return { part: value('part'), conformance: value('conformance'), xmp };
}

/** qpdf --json's objects and trailer. */
export function qpdfJson(bytes: Uint8Array): {
  objects: Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;
  trailer: Record<string, unknown>;
} {
  const json = JSON.parse(withFile(bytes, (file) => execFileSync('qpdf', ['--json', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 64 << 20 })));
  const [, objects] = json.qpdf as [unknown, Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>];
  return { objects, trailer: objects.trailer?.value ?? {} };
}

/** The catalog's OutputIntents with their profile's N, and the trailer's /ID, as qpdf reads them. */
export function archivalParts(bytes: Uint8Array): { intents: { s: unknown; n: unknown }[]; id: unknown; catalog: Record<string, unknown> } {
  const { objects, trailer } = qpdfJson(bytes);
  const deref = (ref: unknown) => (typeof ref === 'string' && /^\d+ \d+ R$/.test(ref) ? objects[`obj:${ref}`] : undefined);
  const catalog = deref(trailer['/Root'])?.value ?? {};
  const intentRefs = (deref(catalog['/OutputIntents'])?.value ?? catalog['/OutputIntents'] ?? []) as unknown[];
  const intents = intentRefs.map((ref) => {
    const intent = (deref(ref)?.value ?? ref) as Record<string, unknown>;
    return { s: intent['/S'], n: deref(intent['/DestOutputProfile'])?.stream?.dict['/N'] };
  });
  return { intents, id: trailer['/ID'], catalog };
}

/** pdffonts' rows: name and whether embedded and mapped to Unicode. */
export function fontsOf(bytes: Uint8Array): { name: string; embedded: boolean; unicode: boolean }[] {
  const out = withFile(bytes, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
  return out
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const columns = line.trim().split(/\s+/);
      const [emb, , uni] = columns.slice(-5, -2);
      return { name: columns[0]!, embedded: emb === 'yes', unicode: uni === 'yes' };
    });
}

/** pdftotext's text in reading order. */
export function textOf(bytes: Uint8Array): string {
  return withFile(bytes, (file) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
}

const PREFLIGHT_JARS = ['preflight', 'pdfbox2', 'fontbox2', 'xmpbox', 'commons-logging', 'javax.activation', 'jaxb-api'].map(
  (jar) => `/usr/share/java/${jar}.jar`,
);

/** Why PDFBox Preflight cannot run here, or undefined when it can. */
export const preflightMissing =
  PREFLIGHT_JARS.every(existsSync) && spawnSync('java', ['-version']).status === 0 ? undefined : 'no java or PDFBox Preflight (Debian libpdfbox2-java)';

/** PDFBox Preflight's PDF/A-1b verdict: exit 0 and its "is a valid PDF/A-1b file" line. */
export function preflight1b(bytes: Uint8Array): { valid: boolean; output: string } {
  return withFile(bytes, (file) => {
    const run = spawnSync('java', ['-cp', PREFLIGHT_JARS.join(':'), 'org.apache.pdfbox.preflight.Validator_A1b', file], { encoding: 'utf8', timeout: 120_000 });
    const output = `${run.stdout}${run.stderr}`;
    return { valid: run.status === 0 && /is a valid PDF\/A-1b file/.test(output), output };
  });
}

/** The VERAPDF command (a veraPDF CLI), where one is given. */
export const veraPdfCommand = process.env.VERAPDF;

/** veraPDF's verdict on the file for the flavour ("2b"). */
export function veraPdf(bytes: Uint8Array, flavour: string): { valid: boolean; output: string } {
  return withFile(bytes, (file) => {
    const run = spawnSync(veraPdfCommand!, ['--flavour', flavour, '--format', 'text', file], { encoding: 'utf8', timeout: 300_000 });
    return { valid: /^PASS\b/m.test(run.stdout), output: `${run.stdout}${run.stderr}` };
  });
}
