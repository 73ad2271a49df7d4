// BT-8 (VAT point date code) is coded differently per syntax: UBL uses UNTDID 2005 (3, 35, 432),
// CII UNTDID 2475 (5, 29, 72). A writer translates a code read from the other syntax.

const CII_TO_UBL: Record<string, string> = { '5': '3', '29': '35', '72': '432' };
const UBL_TO_CII: Record<string, string> = Object.fromEntries(Object.entries(CII_TO_UBL).map(([cii, ubl]) => [ubl, cii]));

/** The code as the target syntax writes it; a code of neither list is kept as it is. */
export function vatDateCodeFor(target: 'CII' | 'UBL', code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  return (target === 'UBL' ? CII_TO_UBL[code] : UBL_TO_CII[code]) ?? code;
}
