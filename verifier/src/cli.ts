#!/usr/bin/env node
// ofctx-verify: check a delivery body and signature from the command line.
//   ofctx-verify [verify] --secret S [--signature HEX] < body
//   ofctx-verify sign --secret S < body
// Without --signature, stdin is the JSON answer of POST /webhooks/{id}/test (whole, or its
// `data`). Exit codes: 0 valid, 1 invalid (reason on stderr), 2 usage error.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { syncHmacEngine } from './crypto/hmac-engine.js';
import { parseDeliveryEnvelope, type EventDelivery } from './delivery-envelope.js';
import { WebhookVerificationError } from './errors.js';
import { utf8Bytes } from './raw-body.js';
import { sign } from './sign.js';
import { assertSignature, requiredSignature } from './signature-check.js';
import { signingSecrets } from './signing-secret.js';
import { verifyDelivery } from './verify-delivery.js';

const USAGE = `Usage:
  ofctx-verify [verify] --secret <secret> [--signature <hex>] < body
  ofctx-verify sign --secret <secret> < body

verify  Checks that the signature is the HMAC-SHA256 of the body under the secret and that
        the body is a delivery envelope. With --signature, stdin is the raw body, byte for
        byte. Without it, stdin is the JSON answer of POST /webhooks/{id}/test (the whole
        answer or its "data"), and body, signature and headers are taken from it.
sign    Prints the signature of the raw body on stdin.

Options:
  --secret, -s <secret>     The subscription's signing secret (ofx_whs_...).
                            Default: the OFCTX_SIGNING_SECRET environment variable.
  --signature <hex>         The X-Service-Signature value.
  --help, -h                Show this help.

Exit codes: 0 valid, 1 invalid (the reason goes to stderr), 2 usage error.`;

class UsageError extends Error {}

interface TestDelivery {
  body: string;
  signature: string;
  headers?: Record<string, string>;
}

function main(argv: string[]): number {
  let values: { secret?: string; signature?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        secret: { type: 'string', short: 's' },
        signature: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const [command = 'verify', ...extra] = positionals;
    if (command !== 'verify' && command !== 'sign') throw new UsageError(`unknown command "${command}"`);
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const secret = values.secret ?? process.env.OFCTX_SIGNING_SECRET;
    if (secret === undefined || secret === '') throw new UsageError('no secret: pass --secret or set OFCTX_SIGNING_SECRET');
    const stdin = readFileSync(0);
    if (command === 'sign') {
      process.stdout.write(`${sign(stdin, secret)}\n`);
      return 0;
    }
    const delivery = values.signature === undefined ? verifyTestDelivery(stdin, secret) : verifyRawBody(stdin, values.signature, secret);
    process.stdout.write(`valid: ${delivery.event_type} delivery ${delivery.delivery_id} (event ${delivery.event_id})\n`);
    return 0;
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      process.stderr.write(`invalid (${error.code}): ${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || error instanceof TypeError || isParseArgsError(error)) {
      process.stderr.write(`ofctx-verify: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

function verifyRawBody(body: Uint8Array, signatureHeader: string, secret: string): EventDelivery {
  const signature = requiredSignature(signatureHeader);
  assertSignature(syncHmacEngine(), body, body, signature, signingSecrets(secret));
  return parseDeliveryEnvelope(body);
}

function verifyTestDelivery(stdin: Uint8Array, secret: string): EventDelivery {
  const { body, signature, headers } = testDelivery(stdin);
  if (!headers) return verifyRawBody(utf8Bytes(body), signature, secret);
  // The answer's `signature` is the one to check; drop any copy of it among the headers.
  const otherHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'x-service-signature'));
  // A saved test answer is checked at any later time: its signed webhook-timestamp is not a
  // replay here, so its age is not held against it (both signatures still are checked).
  return verifyDelivery(body, { ...otherHeaders, 'X-Service-Signature': signature }, secret, { toleranceSeconds: Number.MAX_SAFE_INTEGER });
}

/** The test operation's answer on stdin: `{ data: { body, signature, headers } }` or its `data`. */
function testDelivery(stdin: Uint8Array): TestDelivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(stdin));
  } catch {
    parsed = undefined;
  }
  const candidate = isRecord(parsed) && isRecord(parsed.data) ? parsed.data : parsed;
  if (!isRecord(candidate) || typeof candidate.body !== 'string' || typeof candidate.signature !== 'string') {
    throw new UsageError(
      'no --signature given, and stdin is not the JSON answer of the test operation ({"data":{"body":...,"signature":...}}); ' +
        'to check a raw body, pass its signature with --signature',
    );
  }
  const headers = isRecord(candidate.headers) ? (candidate.headers as Record<string, string>) : undefined;
  return { body: candidate.body, signature: candidate.signature, ...(headers ? { headers } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

process.exitCode = main(process.argv.slice(2));
