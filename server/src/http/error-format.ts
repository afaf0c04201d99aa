// Which body an error gets, decided in one place. The contract says it per operation with
// `x-ofctx-error-format: operation-outcome` (the FHIR R4 view). A request that matched no
// operation under the FHIR base (an unknown type, a wrong method) is answered as FHIR too,
// and so is the ingest endpoint (whose body errors arise before routing). Everything else
// gets the `{ data, meta, error }` envelope. The operators' console (`x-ofctx-error-format:
// html`, and any path under /console) gets an HTML page.
import type { Context } from 'koa';

export const FHIR_BASE_PREFIX = '/api/v1/fhir/R4/';
export const ERROR_FORMAT_EXTENSION = 'x-ofctx-error-format';

export type ErrorFormat = 'envelope' | 'operation-outcome' | 'html';
export const CONSOLE_PREFIX = '/console';

/** Remembered at routing (api-backend's postRoutingHandler), from the matched operation. */
export function rememberErrorFormat(ctx: Context, operation: Record<string, unknown> | undefined): void {
  if (!operation) return;
  const format = operation[ERROR_FORMAT_EXTENSION];
  ctx.state.errorFormat = format === 'operation-outcome' || format === 'html' ? format : 'envelope';
}

export function errorFormatOf(ctx: Context): ErrorFormat {
  if (isIngestRequest(ctx.method, ctx.path)) return 'operation-outcome';
  const routed = ctx.state.errorFormat as ErrorFormat | undefined;
  if (routed !== undefined) return routed;
  if (isConsolePath(ctx.path)) return 'html';
  return ctx.path.startsWith(FHIR_BASE_PREFIX) ? 'operation-outcome' : 'envelope';
}

/** The ingest operation (POST .../ingest/{org}/{facility}/fhir): its body errors arise before routing. */
function isIngestRequest(method: string, path: string): boolean {
  return method === 'POST' && /^\/api\/v1\/ingest\/[^/]+\/[^/]+\/fhir\/?$/.test(path);
}

export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}
