// Counts every API answer once it is final (outside the error handler): its operation, status
// and latency; at the token endpoint, tokens issued and refused; and every 429. Labelled by
// the contract's operationId, never by the path (paths carry organization and resident ids).
import type { Context } from 'koa';
import { TOKEN_OPERATION } from '../errors/token-endpoint.js';
import { boundedLabel, type ServiceMetrics } from './service-metrics.js';

/** Counts a finished request; `started` is its performance.now() on arrival. */
export type RequestMetrics = (ctx: Context, started: number) => void;

export function requestMetrics(metrics: ServiceMetrics): RequestMetrics {
  return (ctx, started) => {
    const operation = (ctx.state.operationId as string | undefined) ?? 'unmatched';
    const status = ctx.status;
    metrics.requestDuration.observe(operation, ctx.method, String(status), (performance.now() - started) / 1000);
    if (status === 429) metrics.rateLimitRefusals.inc({ operation });
    if (operation === TOKEN_OPERATION) {
      if (status === 200) metrics.tokensIssued.inc();
      else metrics.tokensRefused.inc({ error: boundedLabel((ctx.body as { error?: string } | undefined)?.error) });
    }
  };
}
