// How numbers, sizes and times read on screen, in the window's safe locale (locale.ts).

import { LOCALE } from './locale.ts';

const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' });
// Month as a word, 24-hour clock: "26 Nov 14:05" reads the same everywhere ("11/26/26" does not).
const shortDateTime = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const shortDateTimeYear = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
// The window's one clock: 24-hour everywhere (the Activity table, chart axes, dates), whatever the locale's habit.
const clock = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const clockSeconds = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const number = new Intl.NumberFormat(LOCALE);
const DAY_MS = 86_400_000;

export function formatDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : day.format(date);
}

export function formatNumber(value: number): string {
  return number.format(value);
}

/** "1 request", "2 requests"; `many` for an irregular plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDate(iso: string | undefined | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A date and time for narrow columns and chart axes: "26 Nov 14:05", the year added when it is not this one. */
export function formatShortDate(iso: string | number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return (date.getFullYear() === new Date().getFullYear() ? shortDateTime : shortDateTimeYear).format(date);
}

/** "14:05", or "14:05:32" with seconds: the 24-hour time of day. */
export function formatClock(at: string | number | Date, withSeconds = false): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : (withSeconds ? clockSeconds : clock).format(date);
}

/**
 * Whole days until `iso`, counted as the server counts them (services/signing/certificates.ts): a part
 * day counts as a day, so 19.2 days left reads "20 days" here as in the API, receipts and the
 * playground. Negative once it has passed.
 */
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.ceil((Date.parse(iso) - now) / DAY_MS);
}

/** "in 3 h", "in 12 d", "expired" (for expires_at). */
export function timeLeft(iso: string, now = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (!Number.isFinite(ms)) return '—';
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${Math.max(1, minutes)} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h left`;
  const days = Math.floor(hours / 24);
  if (days < 730) return `${days} d left`;
  return `${Math.floor(days / 365)} y left`;
}

/** "2 minutes ago" style for recent times, the date beyond a day. */
export function timeAgo(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return formatDate(iso);
}
