import { expect } from 'chai';
import {
  AuthenticationError,
  ConflictError,
  errorFromResponse,
  errorFromTokenResponse,
  NotFoundError,
  OAuthError,
  OfctxError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../src/errors.js';
import { errorEnvelope, oauthErrorBody, REQUEST_ID } from './fixtures/api.js';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): [Response, unknown] {
  return [new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }), body];
}

describe('errorFromResponse', () => {
  const cases: Array<[number, Parameters<typeof errorEnvelope>[0], new (...args: never[]) => OfctxError]> = [
    [400, 'invalid_parameter', ValidationError],
    [400, 'callback_url_not_allowed', ValidationError],
    [401, 'invalid_token', AuthenticationError],
    [401, 'missing_token', AuthenticationError],
    [403, 'facility_forbidden', PermissionError],
    [404, 'not_found', NotFoundError],
    [409, 'subscription_not_active', ConflictError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', ServerError],
    [503, 'service_unavailable', ServerError],
  ];
  for (const [status, code, kind] of cases) {
    it(`makes ${status} ${code} a ${kind.name}`, () => {
      const error = errorFromResponse(...answer(status, errorEnvelope(code, 'Something is wrong.')));
      expect(error).to.be.instanceOf(kind).and.instanceOf(OfctxError).and.instanceOf(Error);
      expect(error.name).to.equal(kind.name);
      expect(error).to.include({ status, code, message: 'Something is wrong.', requestId: REQUEST_ID });
    });
  }

  it('makes an unmapped status (413) a plain OfctxError that keeps the code', () => {
    const error = errorFromResponse(...answer(413, errorEnvelope('payload_too_large', 'The request body exceeds 65536 bytes.')));
    expect(error.constructor).to.equal(OfctxError);
    expect(error.code).to.equal('payload_too_large');
  });

  it('keeps the per-field details and the raw body', () => {
    const body = errorEnvelope('invalid_parameter', 'The request has invalid parameters.', [{ field: 'query.page_size', issue: 'must be <= 200' }]);
    const error = errorFromResponse(...answer(400, body));
    expect(error.details).to.deep.equal([{ field: 'query.page_size', issue: 'must be <= 200' }]);
    expect(error.raw).to.deep.equal(body);
  });

  it('says in its message what each field needs, so a logged message names the fix', () => {
    const body = errorEnvelope('invalid_parameter', 'The request has invalid parameters.', [
      { field: 'query.page_size', issue: 'must be <= 200' },
      { field: 'query._lastUpdated.0', issue: 'must be gt, ge, lt or le and a date' },
    ]);
    expect(errorFromResponse(...answer(400, body)).message).to.equal('The request has invalid parameters. (query.page_size must be <= 200; query._lastUpdated.0 must be gt, ge, lt or le and a date)');
    // Details that are not field and issue are left out of the message, and none leaves it as it is.
    expect(errorFromResponse(...answer(400, errorEnvelope('invalid_parameter', 'Bad.', [{ field: 3 } as never]))).message).to.equal('Bad.');
  });

  it('takes the request id from X-Request-Id when the body has none', () => {
    const error = errorFromResponse(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'X-Request-Id': 'proxy-7' } }), '<html>Bad gateway</html>');
    expect(error).to.be.instanceOf(ServerError);
    expect(error).to.include({ requestId: 'proxy-7', code: 'internal_error', message: 'The API answered HTTP 502 Bad Gateway.' });
    expect(error.raw).to.equal('<html>Bad gateway</html>');
  });

  it('reads the required scope of a 403 from WWW-Authenticate', () => {
    const error = errorFromResponse(
      ...answer(403, errorEnvelope('insufficient_scope', 'This operation needs the scope coverage.read.'), {
        'WWW-Authenticate': 'Bearer realm="ofctx", error="insufficient_scope", scope="coverage.read"',
      }),
    );
    expect(error).to.be.instanceOf(PermissionError);
    expect((error as PermissionError).requiredScope).to.equal('coverage.read');
  });

  it('reads the required scope of a 403 from details when the header is absent', () => {
    const error = errorFromResponse(
      ...answer(403, errorEnvelope('insufficient_scope', 'This operation needs the scope clinical.read.', [{ field: 'scope', issue: 'requires clinical.read' }])),
    );
    expect((error as PermissionError).requiredScope).to.equal('clinical.read');
  });

  it('leaves requiredScope undefined for a facility outside the grant', () => {
    const error = errorFromResponse(...answer(403, errorEnvelope('facility_forbidden', 'The facility is not granted to this credential.')));
    expect((error as PermissionError).requiredScope).to.equal(undefined);
  });

  it('reads Retry-After of a 429 into retryAfterMs', () => {
    const error = errorFromResponse(...answer(429, errorEnvelope('rate_limited', 'Too many requests.'), { 'Retry-After': '42' }));
    expect((error as RateLimitError).retryAfterMs).to.equal(42_000);
  });
});

describe('errorFromTokenResponse', () => {
  it('makes invalid_client an AuthenticationError with that code', () => {
    const error = errorFromTokenResponse(...answer(401, oauthErrorBody('invalid_client', 'Client authentication failed.')));
    expect(error).to.be.instanceOf(AuthenticationError);
    expect(error).to.include({ status: 401, code: 'invalid_client', message: 'Client authentication failed.' });
  });

  for (const code of ['invalid_scope', 'invalid_request', 'unsupported_grant_type'] as const) {
    it(`makes ${code} an OAuthError`, () => {
      const error = errorFromTokenResponse(...answer(400, oauthErrorBody(code, 'No.')));
      expect(error).to.be.instanceOf(OAuthError);
      expect(error).to.include({ status: 400, code, errorDescription: 'No.' });
    });
  }

  it('makes rate_limited an OAuthError with retryAfterMs', () => {
    const error = errorFromTokenResponse(...answer(429, oauthErrorBody('rate_limited', 'Too many token requests.'), { 'Retry-After': '42' }));
    expect(error).to.be.instanceOf(OAuthError);
    expect(error).to.include({ code: 'rate_limited', retryAfterMs: 42_000 });
  });

  it('makes server_error a ServerError', () => {
    const error = errorFromTokenResponse(...answer(500, oauthErrorBody('server_error', 'An unexpected error occurred.')));
    expect(error).to.be.instanceOf(ServerError);
    expect(error.code).to.equal('server_error');
  });

  it('falls back to the status for a body that is not an OAuth error', () => {
    const error = errorFromTokenResponse(new Response('upstream down', { status: 503 }), 'upstream down');
    expect(error).to.be.instanceOf(ServerError);
  });
});
