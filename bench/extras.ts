// Extra bench sections that later features add (metering, guard, documents, batches).
// Each returns a markdown block; main prints them after the render table.

import type { ServiceProcess } from './service-process.ts';

export async function runExtras(_service: ServiceProcess): Promise<string> {
  return '';
}
