// Prefixed random credentials: the prefix lets secret scanners and humans tell them apart.
import { createHash, randomBytes } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** Tokens are high-entropy, so a plain SHA-256 is a safe lookup key at rest. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
