// The one catalogue of the service's errors: code -> HTTP status and default message.
// Codes are the contract's ErrorCode enum (openapi/openapi.yaml); a test keeps them equal.
import type { components } from '@ofctx/sdk/contract';

export type ErrorCode = components['schemas']['ErrorCode'];

export const errorCatalogue: Record<ErrorCode, { status: number; message: string }> = {
  invalid_parameter: { status: 400, message: 'The request has invalid parameters.' },
  invalid_body: { status: 400, message: 'The request body is invalid.' },
  callback_url_not_allowed: { status: 400, message: 'The callback URL is not allowed.' },
  invalid_fhir: { status: 400, message: 'The body is not a FHIR R4 Bundle of type transaction or batch, or an entry is not valid FHIR R4.' },
  invalid_x12: { status: 400, message: 'The body is not a well-formed X12 005010X279A1 271 interchange; see error.details.' },
  missing_token: { status: 401, message: 'Send an access token: Authorization: Bearer <ACCESS_TOKEN>. Get one at /api/v1/oauth/token.' },
  invalid_token: { status: 401, message: 'The access token is invalid, expired or revoked; request a new one at /api/v1/oauth/token.' },
  insufficient_scope: { status: 403, message: 'The access token lacks the scope this operation needs.' },
  organization_forbidden: { status: 403, message: 'The organization in the path is not the organization of this credential.' },
  facility_forbidden: { status: 403, message: 'The facility in the path is not granted to this credential.' },
  not_found: { status: 404, message: 'No such resource.' },
  method_not_allowed: { status: 405, message: 'This path does not support this method.' },
  subscription_not_active: { status: 409, message: 'The subscription is not active; register a new one.' },
  subscription_limit_reached: { status: 409, message: 'The organization has reached its limit of active subscriptions.' },
  delivery_already_queued: { status: 409, message: 'The delivery is still queued; it will be attempted without being asked again.' },
  console_sign_in_required: { status: 401, message: 'Sign in to the console with a link from the ops CLI: npm run -s ops -- console link --org ORG.' },
  console_link_invalid: { status: 401, message: 'This sign-in link was used already or has expired; ask for a new one: npm run -s ops -- console link --org ORG.' },
  csrf_token_invalid: { status: 403, message: 'The form was refused: it did not come from this console session. Reload the page and try again.' },
  precondition_failed: { status: 412, message: 'A Bundle entry names a version (request.ifMatch) that is no longer the current one; read the record again and resend.' },
  unprocessable_resource: { status: 422, message: 'A resource cannot be applied: see the OperationOutcome issues.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  headers_too_large: { status: 431, message: 'The request headers are too large (16 KiB at most).' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json.' },
  rate_limited: { status: 429, message: 'Too many requests; retry later.' },
  quota_exceeded: { status: 429, message: "This credential has used its request quota; wait Retry-After seconds and pace requests by the RateLimit header, or ask the operator to raise the credential's quota." },
  internal_error: { status: 500, message: 'An unexpected error occurred.' },
  service_unavailable: { status: 503, message: 'The service is not available right now; retry later.' },
};
