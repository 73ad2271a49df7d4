// Exact decimal arithmetic for invoice amounts: a value is a bigint scaled by 10^12, so sums and
// products of the decimal strings an invoice carries never meet binary float rounding. The rules
// compare to 2 decimals as the official artefacts do (XPath round: half toward +infinity).

const SCALE = 12;
const ONE = 10n ** BigInt(SCALE);

/** An exact decimal: `units` / 10^12. */
export type Dec = bigint;

const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/;

/** The value of a decimal string ("-12.50", "3", ".5"), or undefined when it is none (xs:decimal's lexical form). */
export function dec(text: string | undefined): Dec | undefined {
  if (text === undefined) return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = fraction.slice(0, SCALE).padEnd(SCALE, '0');
  const units = BigInt(whole || '0') * ONE + BigInt(digits);
  return sign === '-' ? -units : units;
}

export const ZERO: Dec = 0n;
export const fromInt = (n: number): Dec => BigInt(n) * ONE;

export function sum(values: Iterable<Dec | undefined>): Dec {
  let total = 0n;
  for (const value of values) total += value ?? 0n;
  return total;
}

/** a × b, exact to 12 decimals (truncated beyond). */
export const mul = (a: Dec, b: Dec): Dec => (a * b) / ONE;

/** a / b to 12 decimals (truncated); b must not be 0. */
export const div = (a: Dec, b: Dec): Dec => (a * ONE) / b;

export const abs = (a: Dec): Dec => (a < 0n ? -a : a);

/** Rounds to `places` decimals, half toward +infinity (XPath fn:round). */
export function round(a: Dec, places = 2): Dec {
  const step = 10n ** BigInt(SCALE - places);
  const half = step / 2n;
  const shifted = a + half;
  // floor division for negatives too
  const floored = shifted >= 0n ? shifted / step : -((-shifted + step - 1n) / step);
  return floored * step;
}

/** The number of digits after the decimal point as written (BR-DEC rules count the source text). */
export function fractionDigits(text: string): number {
  const point = text.trim().indexOf('.');
  return point < 0 ? 0 : text.trim().length - point - 1;
}

/** A readable form for messages: trailing zeros dropped, at least 2 decimals. */
export function show(a: Dec): string {
  const negative = a < 0n;
  const units = negative ? -a : a;
  const whole = units / ONE;
  let fraction = (units % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
