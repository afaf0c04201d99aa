// Verifications per second, in this process, on 1 KB and 64 KB delivery bodies:
//  - bare HMAC: createHmac + timingSafeEqual on the hex header, the least a correct check does;
//  - @ofctx/verifier verifySignature (the same check behind its input handling);
//  - @ofctx/verifier verifyDelivery (signature, then UTF-8 JSON parse and envelope checks);
//  - the standardwebhooks package, on its own scheme (HMAC over `id.timestamp.body`, base64
//    signature, timestamp check), with jsonParse off so it does what verifySignature does.
// Each contender runs in short rounds, interleaved with the others, and keeps its median round,
// so that a burst of noise on the machine hits every contender alike.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sign, verifyDelivery, verifySignature } from '@ofctx/verifier';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';

export const VERIFIER_CONTENDERS = ['bare createHmac + timingSafeEqual', '@ofctx/verifier verifySignature', '@ofctx/verifier verifyDelivery', 'standardwebhooks verify'] as const;
export type VerifierContender = (typeof VERIFIER_CONTENDERS)[number];

export interface VerifierSize {
  bodyBytes: number;
  perSecond: Record<VerifierContender, number>;
}

export interface VerifierResult {
  rounds: number;
  sizes: VerifierSize[];
}

const SECRET = 'ofx_whs_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const ROUNDS = 7;

/** A real delivery envelope padded to `bytes` with a property receivers ignore. */
function envelopeOf(bytes: number): string {
  const envelope = {
    api_version: 'v1',
    event_type: 'coverage.updated',
    event_id: '8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d',
    delivery_id: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
    occurred_at: '2026-11-22T10:00:00.000Z',
    data: { org_id: '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60', facility_id: '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21', resident_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' },
    padding: '',
  };
  const base = JSON.stringify(envelope).length;
  envelope.padding = 'x'.repeat(Math.max(0, bytes - base));
  return JSON.stringify(envelope);
}

function contenders(bodyText: string): Record<VerifierContender, () => unknown> {
  const body = Buffer.from(bodyText, 'utf8');
  const signature = sign(body, SECRET);
  const headers = {
    'content-type': 'application/json',
    'x-service-signature': signature,
    'x-service-delivery-id': '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
    'x-service-event-type': 'coverage.updated',
  };
  // standardwebhooks' own secret format (whsec_ + base64 key) and headers.
  const standard = new Webhook(`whsec_${Buffer.from(SECRET).toString('base64')}`);
  const messageId = 'msg_bench';
  const timestamp = new Date();
  const standardHeaders = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': standard.sign(messageId, timestamp, bodyText) };

  const all: Record<VerifierContender, () => unknown> = {
    'bare createHmac + timingSafeEqual': () => {
      const expected = Buffer.from(signature, 'hex');
      const actual = createHmac('sha256', SECRET).update(body).digest();
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    '@ofctx/verifier verifySignature': () => verifySignature(body, signature, SECRET),
    '@ofctx/verifier verifyDelivery': () => verifyDelivery(body, headers, SECRET),
    'standardwebhooks verify': () => standard.verify(bodyText, standardHeaders, { jsonParse: false }),
  };
  // Every contender must accept the body, or its speed means nothing.
  for (const [name, check] of Object.entries(all)) {
    const result = check();
    if (result === false) throw new Error(`${name} rejected a valid body`);
  }
  return all;
}

function opsPerSecond(fn: () => unknown, ms: number): number {
  let operations = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 100; i++) fn();
    operations += 100;
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  return (operations * 1000) / elapsed;
}

export async function verifierThroughput(settings: BenchSettings): Promise<VerifierResult> {
  const sizes: VerifierSize[] = [];
  // A round per contender; the whole benchmark takes about 2 x BENCH_DURATION x 2.
  const roundMs = (settings.durationSeconds * 1000) / ROUNDS / 2;
  for (const bodyBytes of [1024, 64 * 1024]) {
    settings.log(`  ${bodyBytes / 1024} KB bodies`);
    const fns = contenders(envelopeOf(bodyBytes));
    for (const fn of Object.values(fns)) opsPerSecond(fn, roundMs / 2); // warm-up: JIT
    const rounds = new Map<VerifierContender, number[]>(VERIFIER_CONTENDERS.map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of VERIFIER_CONTENDERS) rounds.get(name)!.push(opsPerSecond(fns[name], roundMs));
    }
    sizes.push({ bodyBytes, perSecond: Object.fromEntries(VERIFIER_CONTENDERS.map((name) => [name, median(rounds.get(name)!)])) as Record<VerifierContender, number> });
  }
  return { rounds: ROUNDS, sizes };
}
