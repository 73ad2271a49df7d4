// Telemetry settings: OpenTelemetry export (the OTEL_* variables the SDK reads itself are not listed here).
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { integer, setting, text } from './parsers.ts';

export const telemetrySettings = {
  otelEndpoint: setting(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    '',
    text,
    'OpenTelemetry collector base URL (http://host:4318): traces and metrics go to its /v1/traces and /v1/metrics over OTLP/HTTP; the other OTEL_* variables (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*) are read by the SDK. Empty: off, at no cost.',
  ),
  otelMetricIntervalMs: setting('OTEL_METRIC_EXPORT_INTERVAL', 60_000, integer(100, 3_600_000), 'Milliseconds between OTLP metric exports.'),
} as const;
