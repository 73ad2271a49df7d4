// Running one bench section on its own (`npx tsx bench/<section>.ts`) rather than among the main
// bench's extras: the check that a file is the script node started, and the runners that print
// its section, on a service of its own when it measures one.

import { pathToFileURL } from 'node:url';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

/** Whether the module at `moduleUrl` (its import.meta.url) is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

/** Prints the section `measure` returns; on a failure, prints the error and exits with 1. */
export async function printAlone(measure: () => Promise<string>): Promise<void> {
  try {
    console.log(await measure());
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}

/** Finds Chromium, starts the service, prints the section `measure` makes of it, and stops the service. */
export async function runBenchAlone(measure: (service: ServiceProcess) => Promise<string>): Promise<void> {
  await printAlone(async () => {
    const executable = await findChromium(process.env.CHROME_PATH ?? '');
    const service = await startServiceProcess({ chromePath: executable.path });
    try {
      return await measure(service);
    } finally {
      await service.stop();
    }
  });
}
