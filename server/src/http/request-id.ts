// Gives every request an id: the caller's X-Request-Id when it is sane, otherwise a UUID.
// It is echoed in the X-Request-Id header and in error.request_id.
// A generated id only has to be unique, not unguessable (it authorizes nothing): a random
// UUID drawn once per process, its last 12 hex digits counting up from a random start, so
// every id of the process is distinct and two processes share none but by a 2^-74 chance.
// randomUUID per request (and the entropy refills behind it) was 2% of a /healthz request in
// a perf profile (2026-11-27).
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

// The counter's low 12 bits from a table and the rest formatted once per 4,096 ids: a number
// above 2^31 formatted in hex takes V8's floating-point path, itself 1% of a request.
const LOW_DIGITS = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, '0'));
const HIGH_SPACE = 2 ** 36;
const base = randomUUID();
const prefix = base.slice(0, 24);
let high = Number.parseInt(base.slice(24, 33), 16);
let low = Number.parseInt(base.slice(33), 16);
let highPrefix = prefix + high.toString(16).padStart(9, '0');

/** The next generated id: a UUID (version 4 layout) unique within this process. */
export function generatedRequestId(): string {
  if (++low === 4096) {
    low = 0;
    high = (high + 1) % HIGH_SPACE;
    highPrefix = prefix + high.toString(16).padStart(9, '0');
  }
  return highPrefix + LOW_DIGITS[low]!;
}

export function assignRequestId(ctx: Context): void {
  const offered = ctx.req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : generatedRequestId();
  ctx.state.requestId = id;
  ctx.res.setHeader('X-Request-Id', id);
}
