// Gives every request an id: the caller's X-Request-Id when it is sane, otherwise a UUID.
// It is echoed in the X-Request-Id header and in error.request_id.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function assignRequestId(ctx: Context): void {
  const offered = ctx.req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  ctx.state.requestId = id;
  ctx.response.set('X-Request-Id', id);
}
