// The check digit schemes payment references use: ISO 7064 MOD 97-10 (the IBAN and the ISO 11649
// creditor reference "RF...") and the recursive modulo 10 of the Swiss QR reference. Pure
// arithmetic on strings of digits and capital letters; the callers check the shape first.

/** The remainder mod 97 of the number a string of digits and letters stands for (A = 10 ... Z = 35). */
export function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = Number.parseInt(char, 36);
    // A letter is two digits, so the running remainder is shifted by 100 rather than 10.
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** True when an IBAN or RF reference's check digits (characters 3-4) hold: the first four moved to the end leave 1 mod 97. */
export function hasValidMod97(code: string): boolean {
  return mod97(code.slice(4) + code.slice(0, 4)) === 1;
}

/** The two check digits an ISO 11649 reference "RF??<body>" needs. */
export function creditorReferenceCheckDigits(body: string): string {
  return String(98 - mod97(`${body}RF00`)).padStart(2, '0');
}

/** The modulo 10 recursive table (Swiss Implementation Guidelines for the QR-bill, the QR reference). */
const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];

/** The check digit that follows a QR reference's first 26 digits. */
export function qrReferenceCheckDigit(digits: string): string {
  let carry = 0;
  for (const char of digits) carry = MOD10_TABLE[(carry + Number(char)) % 10]!;
  return String((10 - carry) % 10);
}
