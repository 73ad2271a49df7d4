// veraPDF, the reference PDF/A validator, called at run time when the operator names it
// (VERAPDF_PATH): its verdict goes into the conformance report beside our own checker's. A child
// process with a time bound and bounded output; the file goes through a private temporary folder.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PdfALevelFacts } from './pdf-a-options.ts';

export interface VeraPdfVerdict {
  /** False when veraPDF could not run or gave no verdict: reported, and the file is judged by our checker alone. */
  ran: boolean;
  passed: boolean;
  /** veraPDF's own line ("PASS file.pdf 2b"), or why it could not run. */
  detail: string;
}

const TIMEOUT_MS = 120_000;

/** Runs `command --flavour 2b --format text file.pdf` and reads its PASS or FAIL line. */
export async function runVeraPdf(command: string, pdf: Uint8Array, facts: PdfALevelFacts): Promise<VeraPdfVerdict> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-verapdf-'));
  const file = path.join(folder, 'output.pdf');
  try {
    await writeFile(file, pdf, { mode: 0o600 });
    const flavour = `${facts.part}${facts.conformance.toLowerCase()}`;
    const output = await new Promise<string>((resolve) => {
      execFile(command, ['--flavour', flavour, '--format', 'text', file], { timeout: TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout) => {
        // veraPDF exits non-zero on a failed file too; only a missing PASS/FAIL line is an error.
        resolve(/^(PASS|FAIL)\b/m.test(stdout) ? stdout : `ERROR ${error?.message ?? 'no verdict'}`);
      });
    });
    const line = /^(PASS|FAIL)\b.*$/m.exec(output)?.[0] ?? output.split('\n')[0]!.slice(0, 500);
    return { ran: /^(PASS|FAIL)\b/.test(line), passed: line.startsWith('PASS'), detail: line.replace(file, 'output.pdf') };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
