// National Provider Identifier check (45 CFR 162.406): 10 digits, the last a Luhn check digit
// computed over the card-issuer prefix 80840 followed by the first nine. Checked before a 270
// is sent, so a mistyped NPI is refused here rather than by the payer's AAA 43.

/** The Luhn check digit of `digits` (the digit that makes digits + check pass the Luhn test). */
function luhnCheckDigit(digits: string): number {
  let sum = 0;
  // From the right, every other digit starting with the rightmost is doubled (the check digit
  // will take the rightmost place, shifting the parity).
  for (let i = digits.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Undefined when `value` is a valid NPI; otherwise what is wrong with it (never the value itself). */
export function npiProblem(value: string): string | undefined {
  if (!/^\d{10}$/.test(value)) return 'an NPI is 10 digits';
  if (luhnCheckDigit(`80840${value.slice(0, 9)}`) !== value.charCodeAt(9) - 48) {
    return "the NPI's check digit is wrong (the Luhn check over 80840 and its first nine digits)";
  }
  return undefined;
}
