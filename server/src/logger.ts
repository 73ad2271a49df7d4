// Structured JSON logs (pino): one line per event, never an API key or admin token.

import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key', 'token'], censor: '[redacted]' },
  });
}
