// The parts of a split as one zip (fflate, a maintained zip writer). Stored without deflating:
// PDF streams are compressed already, so deflate would cost time for little. Runs on the PDF worker.

import { zipSync } from 'fflate';

/** A zip of the files, in order, under their names. */
export function zipFiles(files: { name: string; data: Uint8Array }[]): Uint8Array {
  return zipSync(Object.fromEntries(files.map(({ name, data }) => [name, [data, { level: 0 }]])));
}
