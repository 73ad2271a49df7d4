// Extra bench sections beside the render table: what metering adds per render as the number of
// keys grows (it must stay flat), and what the network guard costs (on vs off, same run). Later
// features add theirs here.

import type { ServiceProcess } from './service-process.ts';
import { measureMetering } from './metering.ts';
import { measureGuard } from './guard.ts';

export async function runExtras(_service: ServiceProcess): Promise<string> {
  const rows = ['| keys on file | key lookup ms (p50 / p95) | reserve + persist ms (p50 / p95) |', '|---|---|---|'];
  for (const keys of [0, 1_000, 10_000]) {
    const figures = await measureMetering(keys);
    rows.push(`| ${keys.toLocaleString('en')} | ${figures.lookup.p50.toFixed(2)} / ${figures.lookup.p95.toFixed(2)} | ${figures.reservePersist.p50.toFixed(2)} / ${figures.reservePersist.p95.toFixed(2)} |`);
  }
  const guard = await measureGuard();
  return `Metering cost per render\n\n${rows.join('\n')}\n\n${guard}`;
}
