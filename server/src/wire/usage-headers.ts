// docs/api.md#headers: render responses (and a 402) carry X-Service-Usage, X-Service-Limit, X-Service-Plan.

import type { UsageSnapshot } from '../accounts/usage.ts';

export const USAGE_HEADER_DOCS = {
  'X-Service-Usage': 'Documents used this calendar month (UTC), this one included. On a 402: documents used plus renders in progress.',
  'X-Service-Limit': 'Monthly allowance of the plan.',
  'X-Service-Plan': 'Plan id of the calling key.',
};

export function usageHeaders(usage: UsageSnapshot): Record<string, string> {
  return { 'X-Service-Usage': String(usage.used), 'X-Service-Limit': String(usage.limit), 'X-Service-Plan': usage.planId };
}
