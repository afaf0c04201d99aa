// Why a well-formed signature did not match. The common causes (see the README's pitfalls)
// are each tried for real: if the signature matches a variant of the body or the secret, the
// hint says exactly what went wrong. Variants only explain a failure; they never make one pass.
import { utf8Bytes } from './raw-body.js';
import { SECRET_PATTERN, SECRET_PREFIX } from './signing-secret.js';

/** A variant of the secret or body that, if it matches, proves `hint` is the cause. */
export interface MismatchCandidate {
  readonly key: Uint8Array;
  readonly body: Uint8Array;
  readonly hint: string;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function mismatchCandidates(rawBody: unknown, body: Uint8Array, secrets: readonly string[]): MismatchCandidate[] {
  const candidates: MismatchCandidate[] = [];
  for (const secret of secrets) {
    const key = utf8Bytes(secret);
    const trimmed = secret.trim();
    if (trimmed !== secret) {
      candidates.push({
        key: utf8Bytes(trimmed),
        body,
        hint: 'The secret has leading or trailing whitespace (often a newline from a .env file or secret manager): trim it.',
      });
    }
    if (!trimmed.startsWith(SECRET_PREFIX)) {
      candidates.push({
        key: utf8Bytes(SECRET_PREFIX + trimmed),
        body,
        hint: `The secret lacks its ${SECRET_PREFIX} prefix: the key is the whole string shown at registration, prefix included.`,
      });
    }
    for (const variant of bodyVariants(rawBody, body)) candidates.push({ key, ...variant });
  }
  return candidates;
}

function bodyVariants(rawBody: unknown, body: Uint8Array): { body: Uint8Array; hint: string }[] {
  const variants: { body: Uint8Array; hint: string }[] = [];
  if (typeof rawBody === 'string' && looksLikeUtf8DecodedAsLatin1(rawBody)) {
    variants.push({
      body: latin1Bytes(rawBody),
      hint: "The body string was decoded as latin1/'binary' instead of UTF-8: pass the raw Buffer, or decode it as UTF-8.",
    });
  }
  const text = utf8Decoder.decode(body);
  const compact = compactJson(text);
  if (compact !== undefined && compact !== text) {
    variants.push({
      body: utf8Bytes(compact),
      hint:
        'The body was re-formatted (whitespace or escaping changed), i.e. parsed and re-serialized: ' +
        "pass the raw request bytes, e.g. express.raw({ type: 'application/json' }).",
    });
  }
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
    variants.push({ body: body.subarray(3), hint: 'A byte order mark was added in front of the body: pass the bytes as received.' });
  }
  const withoutTrailingWhitespace = text.replace(/\s+$/, '');
  if (withoutTrailingWhitespace !== text) {
    variants.push({
      body: utf8Bytes(withoutTrailingWhitespace),
      hint: 'A trailing newline or whitespace was added to the body (by a shell, an editor or a fixture file): pass the bytes as received.',
    });
  }
  return variants;
}

/** Hints from appearance alone, for when no candidate matched: body causes first, then the secret. */
export function heuristicHints(rawBody: unknown, body: Uint8Array, secrets: readonly string[]): string[] {
  const hints: string[] = [];
  const text = utf8Decoder.decode(body);
  if (typeof rawBody === 'string' && rawBody.includes('\uFFFD')) {
    hints.push('The body contains U+FFFD replacement characters, so it was decoded lossily: pass the raw bytes.');
  }
  const compact = compactJson(text);
  if (compact !== undefined && compact !== text) {
    hints.push(
      'The body differs from compact JSON (ofctx sends compact JSON), so it was probably parsed and re-serialized: pass the raw request bytes.',
    );
  }
  if (typeof rawBody === 'string' && hints.length === 0) {
    hints.push(
      'The body was passed as a string: if it came from JSON.stringify(req.body), re-serialization changed it ' +
        '(escaping, key order, numbers) even if it looks the same. Pass the raw request bytes.',
    );
  }
  const secretHints = secrets.filter((secret) => !SECRET_PATTERN.test(secret)).map(secretShapeHint);
  hints.push(
    ...(secretHints.length > 0
      ? secretHints
      : [
          'Check that the secret belongs to the subscription that sent this delivery (each subscription has its own), ' +
            'and that nothing altered the body on its way.',
        ]),
  );
  return hints;
}

function secretShapeHint(secret: string): string {
  if (/[^\x20-\x7e]/.test(secret) && !secret.startsWith(SECRET_PREFIX)) {
    return 'The secret contains non-printable or non-ASCII characters, as if it had been base64-decoded: the key is the UTF-8 bytes of the secret string itself.';
  }
  return `The secret does not look like an ofctx signing secret (${SECRET_PREFIX} followed by 43 base64url characters).`;
}

function compactJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Only characters U+0000..U+00FF, some of them high: typical of UTF-8 bytes read as latin1. */
function looksLikeUtf8DecodedAsLatin1(text: string): boolean {
  return /[\u0080-\u00ff]/.test(text) && !/[^\u0000-\u00ff]/.test(text);
}

function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
