import { randomFillSync } from 'node:crypto';

// The one form of every id of the service: a UUID (RFC 4122 text form, either case on input;
// stored and answered in lower case).
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

// Rows written in a stream and looked up by id (webhook events, deliveries and their
// attempts, and new records other than residents: ingest/change-chunk.ts) get time-ordered
// UUIDs (version 7, RFC 9562 §5.7): 48 bits of Unix milliseconds,
// then 74 random bits. Consecutive ids then land next to each other in every index on them,
// so an insert or a lookup touches the index's newest pages instead of a random page each
// (random v4 ids made the delivery worker's commits write a page per delivery: docs/benchmarks.md).
// The same form and pattern as every other id; only the creation millisecond shows.
const v7Bytes = Buffer.alloc(16);

// The random bits come from a pool filled 256 ids at a time, as Node's randomUUID keeps its
// own: one randomFillSync costs about 4 µs on this machine kind whatever its size, and an
// HL7 message or an event with eight subscriptions takes several ids (V8 profile, 2026-11-27).
const RANDOM_BYTES = 10;
const POOLED_IDS = 256;
const randomPool = Buffer.alloc(RANDOM_BYTES * POOLED_IDS);
let pooledUsed = POOLED_IDS;

export function timeOrderedUuid(nowMs: number = Date.now()): string {
  if (pooledUsed === POOLED_IDS) {
    randomFillSync(randomPool);
    pooledUsed = 0;
  }
  const start = RANDOM_BYTES * pooledUsed++;
  randomPool.copy(v7Bytes, 6, start, start + RANDOM_BYTES);
  v7Bytes.writeUIntBE(nowMs, 0, 6);
  v7Bytes[6] = (v7Bytes[6]! & 0x0f) | 0x70; // version 7
  v7Bytes[8] = (v7Bytes[8]! & 0x3f) | 0x80; // variant 10
  const hex = v7Bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
