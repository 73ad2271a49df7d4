// The PDF/UA checker's report as the admin window reads it (docs/api.md#pdfua): from a receipt's
// pdf_ua step, from the body of a 422 accessibility_failed, and the X-PDF-UA header's one line.

import { ApiFailure } from '../api/client.ts';

export interface UaFinding {
  /** The Matterhorn condition number ("14-003"), or the ISO 14289-1 clause where Matterhorn has none. */
  condition: string;
  /** 1-based; null where the checker cannot place it on a page. */
  page?: number | null;
  detail: string;
}

export interface UaNeedsPerson {
  topic: string;
  conditions: string[];
  detail: string;
}

export interface UaReport {
  level: string;
  checks: number;
  failed: UaFinding[];
  needs_person: UaNeedsPerson[];
}

/** The report a refused render carries (422 accessibility_failed), else undefined. */
export function failureUaReport(error: unknown): UaReport | undefined {
  if (!(error instanceof ApiFailure) || error.code !== 'accessibility_failed' || !error.body) return undefined;
  const { level, checks, failed, needs_person } = error.body;
  if (!Array.isArray(failed)) return undefined;
  return {
    level: typeof level === 'string' ? level : 'PDF/UA-1',
    checks: typeof checks === 'number' ? checks : 0,
    failed: failed as UaFinding[],
    needs_person: Array.isArray(needs_person) ? (needs_person as UaNeedsPerson[]) : [],
  };
}

/** "PDF/UA-1; checks=30; failed=0" as "PDF/UA-1: 30 checks, 0 failed"; null when there is no header. */
export function describeUaHeader(header: string | null): string | null {
  if (!header) return null;
  const [level, ...facts] = header.split(';').map((part) => part.trim());
  const fact = (name: string) => facts.find((part) => part.startsWith(`${name}=`))?.slice(name.length + 1) ?? '?';
  return `${level}: ${fact('checks')} checks, ${fact('failed')} failed`;
}
