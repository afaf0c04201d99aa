// Byte comparison whose duration does not depend on where the first difference is, so a
// forger cannot learn the expected signature byte by byte from response times.

/** True when a and b hold the same bytes. Length is not secret (a signature is always 32 bytes). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
