// Structured JSON logs (pino): one line per event, never an API key or admin token.

import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** A JSON logger at level, to stdout unless given another destination (the desktop app's log file). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key', 'token'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
