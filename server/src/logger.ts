// Structured JSON logs (pino): one line per event, never an API key or admin token.

import { pino, type DestinationStream, type Logger } from 'pino';
import { logFields } from './telemetry/spans.ts';

export type { Logger };

/** A JSON logger at level, to stdout unless given another destination (the desktop app's log file). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    // trace_id and span_id of the span the line is written in (OpenTelemetry on): logs and traces join.
    mixin: logFields,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'key', 'token'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
