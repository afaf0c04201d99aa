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

const SERIAL_SPACE = 2 ** 48;
const base = randomUUID();
const prefix = base.slice(0, 24);
let serial = Number.parseInt(base.slice(24), 16);

/** The next generated id: a UUID (version 4 layout) unique within this process. */
export function generatedRequestId(): string {
  serial = (serial + 1) % SERIAL_SPACE;
  return prefix + serial.toString(16).padStart(12, '0');
}

export function assignRequestId(ctx: Context): void {
  const offered = ctx.req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : generatedRequestId();
  ctx.state.requestId = id;
  ctx.res.setHeader('X-Request-Id', id);
}
