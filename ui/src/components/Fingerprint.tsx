// A sha256 fingerprint as certificate viewers write it (colon-separated pairs), shown by its ends on
// one line: the whole (95 characters) wrapped onto 6-7 lines of a table cell. The whole is in the
// title and the copy button.

import { CopyButton } from './Copy.tsx';

/** "ab12cd…" or "AB:12:CD…" as upper-case colon-separated pairs. */
export const spacedFingerprint = (hex: string): string =>
  hex.includes(':')
    ? hex.toUpperCase()
    : (hex
        .match(/.{1,2}/g)
        ?.join(':')
        .toUpperCase() ?? hex);

/** Its first and last four pairs: "AB:CD:EF:01…23:45:67:89". */
export const shortFingerprint = (spaced: string): string => (spaced.length > 30 ? `${spaced.slice(0, 11)}…${spaced.slice(-11)}` : spaced);

export function Fingerprint({ value }: { value: string }) {
  const spaced = spacedFingerprint(value);
  return (
    <span className="fingerprint">
      <code className="mono small" title={spaced} data-testid="fingerprint">
        {shortFingerprint(spaced)}
      </code>
      <CopyButton text={spaced} className="button ghost small" />
    </span>
  );
}
