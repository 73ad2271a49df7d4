// The one zip writer of the PDF tools (fflate, a maintained zip writer): the parts of a split and
// the pages drawn as images. Stored without deflating: PDF streams, PNG, JPEG and WebP are
// compressed already, so deflate would cost time for little. Runs on the PDF worker (zipInWorker).

import { zipSync } from 'fflate';

/** A zip of the files, in order, under their names. */
export function zipFiles(files: { name: string; data: Uint8Array }[]): Uint8Array {
  return zipSync(Object.fromEntries(files.map(({ name, data }) => [name, [data, { level: 0 }]])));
}
