// /metrics: on the API port behind the operator's bearer token (METRICS_TOKEN), or on a
// listener of its own (METRICS_PORT) that serves nothing else. Off unless one is configured:
// metrics describe traffic, and are for the operator only.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../errors/api-error.js';
import type { PublicOperationHandler } from './operation.js';
import type { MetricsConfig } from '../config/config.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

export const METRICS_OPERATION = 'getMetrics';
export const METRICS_UNAUTHORIZED = 'Send the operator metrics token: Authorization: Bearer <METRICS_TOKEN>.';

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function metricsTokenMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/** RFC 6750, as for access tokens: `missing_token` without a token, `invalid_token` with a wrong one. */
export function metricsUnauthorized(authorization: unknown): ApiError {
  const challenge = 'Bearer realm="ofctx"';
  return authorization
    ? new ApiError('invalid_token', METRICS_UNAUTHORIZED, [], { 'WWW-Authenticate': `${challenge}, error="invalid_token", error_description="The metrics token is wrong"` })
    : new ApiError('missing_token', METRICS_UNAUTHORIZED, [], { 'WWW-Authenticate': challenge });
}

/** The API port's security check: open when no token is set (the handler then answers 404). */
export function metricsAuthorized(authorization: string | undefined, config: MetricsConfig): boolean {
  return config.token === undefined || metricsTokenMatches(authorization, config.token);
}

/** What /metrics reads of the running service. */
interface MeasuredService {
  config: { metrics: MetricsConfig };
  metrics: ServiceMetrics;
}

export const metricsOperations: Record<string, PublicOperationHandler<MeasuredService>> = {
  [METRICS_OPERATION]: async ({ app }) => {
    if (app.config.metrics.token === undefined) {
      throw new ApiError('not_found', app.config.metrics.port === undefined ? 'Metrics are off: the operator sets METRICS_TOKEN or METRICS_PORT to turn them on.' : 'Metrics are served on their own port (METRICS_PORT).');
    }
    return { status: 200, headers: { 'Content-Type': app.metrics.contentType }, body: await app.metrics.exposition() };
  },
};

/** The dedicated listener: GET /metrics and nothing else (and the token too, when set). */
export async function startMetricsListener(config: MetricsConfig & { port: number }, metrics: ServiceMetrics): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (path !== '/metrics') return answer(404, 'Only /metrics is served on this port.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Use GET.\n', { Allow: 'GET, HEAD' });
    if (config.token !== undefined && !metricsTokenMatches(request.headers.authorization, config.token)) {
      return answer(401, `${METRICS_UNAUTHORIZED}\n`, { 'WWW-Authenticate': metricsUnauthorized(request.headers.authorization).headers['WWW-Authenticate']! });
    }
    metrics.exposition().then(
      (text) => answer(200, text, { 'Content-Type': metrics.contentType }),
      () => answer(500, 'The metrics could not be collected.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
