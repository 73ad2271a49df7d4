// The desktop app's log: pino's JSON lines into <logs>/quire.log, where a desktop user (or the
// "Open logs folder" menu item) can find them, rotated by size so it never fills the disk:
// quire.log -> quire.1.log -> ... -> quire.<keep>.log, the oldest dropped. Also echoed to stdout
// for `npm run app:dev`. Synchronous writes: a log line must be on disk before a crash. No Electron.

import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOG_FILE = 'quire.log';

export interface RotatingLogOptions {
  /** Rotate once the file would pass this size (default 5 MiB). */
  maxBytes?: number;
  /** Older files kept (default 3). */
  keep?: number;
  /** Also write every line here (stdout in development); undefined for none. */
  echo?: { write(line: string): unknown };
}

export class RotatingLogFile {
  private fd: number;
  private size: number;
  private readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(
    private readonly dir: string,
    private readonly options: RotatingLogOptions = {},
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, LOG_FILE);
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = statSync(this.file).size;
  }

  /** pino's destination: one or more whole lines per call. */
  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    try {
      writeSync(this.fd, line);
      this.size += bytes;
    } catch {
      // A full disk must not take the app down with it: the line is lost, the app runs on.
    }
    this.options.echo?.write(line);
    return true;
  }

  /** quire.<n>.log for the n-th older file. */
  olderFile(n: number): string {
    return path.join(this.dir, `quire.${n}.log`);
  }

  private rotate(): void {
    closeSync(this.fd);
    try {
      rmSync(this.olderFile(this.keep), { force: true });
      for (let n = this.keep - 1; n >= 1; n--) {
        try {
          renameSync(this.olderFile(n), this.olderFile(n + 1));
        } catch {
          // That generation does not exist yet.
        }
      }
      if (this.keep > 0) renameSync(this.file, this.olderFile(1));
      else rmSync(this.file, { force: true });
    } catch {
      // Rotation failed (a reader holds the file on Windows): keep appending to the same file.
    }
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = statSync(this.file).size;
  }
}
