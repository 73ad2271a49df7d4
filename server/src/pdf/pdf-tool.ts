// Runs the command-line PDF tools (qpdf, Ghostscript) as bounded child processes: execFile (no
// shell), a time budget, a cap on what they print, and, through prlimit(1) where it exists, a cap
// on their address space and on the size of any file they write. A decompression bomb or a page
// bomb then ends as a refused input, never as a full disk or a swapping server.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PdfToolMissingError, PdfToolTimeoutError } from './pdf-errors.ts';

/** The bounds every tool run shares: the same time budget as a render's longest (60 s), 1.5 GiB of memory, 512 MB per file written. */
export const TOOL_LIMITS = { timeoutMs: 60_000, memoryBytes: 1536 * 1024 * 1024, fileBytes: 512 * 1024 * 1024, outputBytes: 64 * 1024 * 1024 };

export interface ToolRun {
  /** The exit status (qpdf: 0 fine, 3 warnings, 2 errors). */
  code: number;
  stdout: Buffer;
  stderr: string;
  /** Stopped by a limit: a file past fileBytes (SIGXFSZ) or memory past memoryBytes. */
  overLimit: boolean;
}

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path));

/** Runs `tool` with `args`; throws PdfToolMissingError or PdfToolTimeoutError, answers any exit status. */
export function runTool(tool: string, args: string[], limits: Partial<typeof TOOL_LIMITS> = {}): Promise<ToolRun> {
  const { timeoutMs, memoryBytes, fileBytes, outputBytes } = { ...TOOL_LIMITS, ...limits };
  const [file, argv] = PRLIMIT ? [PRLIMIT, [`--as=${memoryBytes}`, `--fsize=${fileBytes}`, '--', tool, ...args]] : [tool, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: timeoutMs, maxBuffer: outputBytes, encoding: 'buffer', killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const text = stderr.toString('utf8');
      if (!error) return resolve({ code: 0, stdout, stderr: text, overLimit: false });
      const failure = error as Error & { killed?: boolean; signal?: string | null; code?: unknown };
      if (failure.code === 'ENOENT' || (PRLIMIT && failure.code === 127 && text.startsWith('prlimit: failed to execute')))
        return reject(new PdfToolMissingError(tool));
      if (failure.killed && failure.signal === 'SIGKILL') return reject(new PdfToolTimeoutError(tool, timeoutMs));
      const overLimit = failure.signal === 'SIGXFSZ' || /bad_alloc|out of memory|VMerror|File size limit|cannot allocate/i.test(text);
      resolve({ code: typeof failure.code === 'number' ? failure.code : 1, stdout, stderr: text, overLimit: overLimit || failure.signal === 'SIGSEGV' });
    });
  });
}

/** The first lines a tool wrote to stderr, without the tool's name and file paths: what to tell a person. */
export function toolComplaint(stderr: string, paths: string[]): string {
  let text = stderr;
  for (const path of paths) text = text.split(path).join('the file');
  const lines = text
    .split('\n')
    .map((line) => line.replace(/^(qpdf|gs|GPL Ghostscript[^:]*):\s*/, '').trim())
    .filter((line) => line.length > 0);
  return lines.slice(0, 3).join('; ').slice(0, 400) || 'the tool gave no reason';
}
