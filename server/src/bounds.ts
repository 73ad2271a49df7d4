// Number bounds whose error message names the whole range, for PdfOptions and other schemas.

export function between(min: number, max: number, format = (n: number) => String(n)) {
  return { error: `must be between ${format(min)} and ${format(max)}` };
}
