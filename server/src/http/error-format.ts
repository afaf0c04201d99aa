// Which body an error gets, decided in one place. The contract says it per operation with
// `x-ofctx-error-format: operation-outcome` (the FHIR R4 view); the ingest endpoint and any
// path under the FHIR base that matched no operation (an unknown type, a wrong method) are
// FHIR too. Everything else gets the `{ data, meta, error }` envelope.
import type { Context } from 'koa';
import { isIngestRequest } from '../ingest/operation-outcome.js';

export const FHIR_BASE_PREFIX = '/api/v1/fhir/R4/';
export const ERROR_FORMAT_EXTENSION = 'x-ofctx-error-format';

export type ErrorFormat = 'envelope' | 'operation-outcome';

/** Remembered at routing (api-backend's postRoutingHandler), from the matched operation. */
export function rememberErrorFormat(ctx: Context, operation: Record<string, unknown> | undefined): void {
  if (operation?.[ERROR_FORMAT_EXTENSION] === 'operation-outcome') ctx.state.errorFormat = 'operation-outcome';
}

export function errorFormatOf(ctx: Context): ErrorFormat {
  if (ctx.state.errorFormat === 'operation-outcome') return 'operation-outcome';
  if (ctx.path.startsWith(FHIR_BASE_PREFIX) || isIngestRequest(ctx.method, ctx.path)) return 'operation-outcome';
  return 'envelope';
}
