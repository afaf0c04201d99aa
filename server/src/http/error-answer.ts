// Turns anything thrown below into a clear answer: the envelope for the API, the RFC 6749
// body for the token endpoint, a FHIR OperationOutcome for the ingest endpoint, an HTML page
// for the operators' console (rendered by the console, handed in: http sits below it). Unexpected
// errors become 500 internal_error and are logged with the request id (never with request
// data); nothing else about them leaks.
import type { Context } from 'koa';
import { ApiError } from '../errors/api-error.js';
import { OAuthError } from '../errors/oauth-error.js';
import type { Logger } from '../logging/logger.js';
import { failure } from './envelope.js';
import { safeErrorSummary } from '../logging/safe-error.js';
import { FHIR_JSON, outcomeOfError } from '../errors/operation-outcome.js';
import { errorFormatOf } from './error-format.js';
import { TOKEN_OPERATION, TOKEN_PATH } from '../errors/token-endpoint.js';

/** Answers what a request's handling threw. */
export type ErrorAnswer = (ctx: Context, thrown: unknown) => void;

/** An error as an HTML page (the console's). */
export type HtmlErrorPage = (error: ApiError, requestId: string) => string;

export function errorAnswer(logger: Logger, htmlPage?: HtmlErrorPage): ErrorAnswer {
  return (ctx, thrown) => {
    const requestId = ctx.state.requestId as string;
    if (thrown instanceof OAuthError) {
      ctx.status = thrown.status;
      ctx.set(thrown.headers);
      ctx.body = { error: thrown.error, error_description: thrown.description };
      return;
    }
    if (!(thrown instanceof ApiError)) {
      logger.error({ request_id: requestId, err: safeErrorSummary(thrown) }, 'unexpected error');
      if (ctx.path === TOKEN_PATH || ctx.state.operationId === TOKEN_OPERATION) {
        ctx.status = 500;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: 'server_error', error_description: 'An unexpected error occurred.' };
        return;
      }
    }
    const error = thrown instanceof ApiError ? thrown : new ApiError('internal_error');
    ctx.status = error.status;
    ctx.set(error.headers);
    const format = errorFormatOf(ctx);
    if (format === 'html' && htmlPage) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = htmlPage(error, requestId);
      return;
    }
    if (format === 'operation-outcome') {
      // FHIR operations (ingest, the R4 view): their failures are OperationOutcome.
      ctx.type = FHIR_JSON;
      ctx.body = outcomeOfError(error, requestId);
      return;
    }
    ctx.body = failure(error, requestId);
  };
}
