// The console's errors as pages a person can act on: what went wrong, what to do (a new
// sign-in link, reload the form), and the request id to quote.
import type { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/error-catalogue.js';
import { errorPage } from './views/plain-pages.js';

const TITLES: Partial<Record<ErrorCode, string>> = {
  console_sign_in_required: 'Sign in',
  console_link_invalid: 'Link used or expired',
  csrf_token_invalid: 'Form refused',
  not_found: 'Not found',
  invalid_parameter: 'Invalid parameter',
  invalid_body: 'Invalid form',
  headers_too_large: 'Request headers too large',
};

export function consoleErrorPage(error: ApiError, requestId: string): string {
  const details = error.details.map((d) => `${d.field} ${d.issue}`).join('; ');
  const signIn = error.code === 'console_sign_in_required' || error.code === 'console_link_invalid';
  return errorPage(TITLES[error.code] ?? 'Something went wrong', details ? `${error.message} (${details})` : error.message, requestId, signIn);
}
