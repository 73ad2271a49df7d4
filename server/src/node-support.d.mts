// Types of node-support.mjs (plain JavaScript so that an unsupported Node can still run it).
export function satisfiesEngines(version: string, range: string): boolean;
export function enginesRange(start?: string): string;
export function unsupportedNodeLine(command: string, version?: string, range?: string): string | undefined;
