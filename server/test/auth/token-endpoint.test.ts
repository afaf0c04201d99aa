// POST /api/v1/oauth/token against the real service: RFC 6749 client credentials.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { assertMatchesContract } from '../../../test/support/contract.js';

const TOKEN = '/api/v1/oauth/token';

describe('the token endpoint', () => {
  let service: TestService;
  let client: { client_id: string; client_secret: string };

  before(async () => {
    service = await startTestService();
    const org = await service.seed.org();
    const facility = await service.seed.facility(org.id);
    client = await service.seed.client({ orgId: org.id, facilityIds: [facility.id], scopes: ['residents.read', 'coverage.read'] });
  });
  after(() => service.close());

  const form = (fields: Record<string, string>) => call(service.baseUrl, 'POST', TOKEN, { form: fields });
  const credentials = () => ({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });

  it('issues a one-hour bearer token with every scope the client holds when scope is omitted', async () => {
    const response = await form(credentials());
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'residents.read coverage.read' });
    expect(response.body.access_token).to.match(/^ofx_at_[A-Za-z0-9_-]{43}$/);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expect(response.body).to.not.have.property('refresh_token');
  });

  it('grants a requested subset of the scopes', async () => {
    const response = await form({ ...credentials(), scope: 'coverage.read' });
    expect(response.status).to.equal(200);
    expect(response.body.scope).to.equal('coverage.read');
  });

  it('answers invalid_scope for a scope beyond the grant or unknown', async () => {
    for (const scope of ['clinical.read', 'coverage.read webhooks.manage', 'admin']) {
      const response = await form({ ...credentials(), scope });
      expect(response.status, scope).to.equal(400);
      expect(response.body.error).to.equal('invalid_scope');
    }
  });

  it('grants system/*.rs as the read scopes the client holds, naming their types (RFC 6749 section 3.3)', async () => {
    const response = await form({ ...credentials(), scope: 'system/*.rs' });
    expect(response.status).to.equal(200);
    expect(response.body.scope).to.equal('system/Patient.rs system/Coverage.rs system/CoverageEligibilityResponse.rs');
  });

  it('answers invalid_scope naming the SMART scope beyond the grant', async () => {
    const response = await form({ ...credentials(), scope: 'system/Patient.rs system/Observation.read' });
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal({
      error: 'invalid_scope',
      error_description: 'The requested scope exceeds the scopes granted to this client: this client does not hold system/Observation.read.',
    });
  });

  it('authenticates the client with HTTP Basic too (RFC 6749 section 2.3.1)', async () => {
    const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64');
    const response = await call(service.baseUrl, 'POST', TOKEN, { form: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } });
    expect(response.status).to.equal(200);
    expect(response.body.token_type).to.equal('Bearer');
  });

  it('refuses a client that authenticates twice (Basic and body)', async () => {
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const response = await call(service.baseUrl, 'POST', TOKEN, { form: credentials(), headers: { authorization: `Basic ${basic}` } });
    expect(response.status).to.equal(400);
    expect(response.body.error).to.equal('invalid_request');
  });

  it('answers unsupported_grant_type for any grant but client_credentials', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token']) {
      const response = await form({ ...credentials(), grant_type: grant });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.equal('unsupported_grant_type');
    }
  });

  it('answers invalid_request when grant_type, client_id or client_secret is missing or repeated', async () => {
    const { client_secret: _s, ...noSecret } = credentials();
    const { client_id: _i, ...noId } = credentials();
    const { grant_type: _g, ...noGrant } = credentials();
    for (const fields of [noSecret, noId, noGrant]) {
      const response = await form(fields as Record<string, string>);
      expect(response.status).to.equal(400);
      expect(response.body.error).to.equal('invalid_request');
    }
    const repeated = await call(service.baseUrl, 'POST', TOKEN, {
      rawBody: `grant_type=client_credentials&client_id=${client.client_id}&client_secret=${encodeURIComponent(client.client_secret)}&scope=a&scope=b`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.status).to.equal(400);
    expect(repeated.body.error).to.equal('invalid_request');
  });

  it('answers the same invalid_client for an unknown client and for a wrong secret', async () => {
    const unknown = await form({ ...credentials(), client_id: 'ofx_ci_000000000000000000000000' });
    const wrong = await form({ ...credentials(), client_secret: `${client.client_secret}x` });
    expect(unknown.status).to.equal(401);
    expect(wrong.status).to.equal(401);
    expect(unknown.body).to.deep.equal(wrong.body);
    expect(unknown.body).to.deep.equal({ error: 'invalid_client', error_description: 'Client authentication failed.' });
  });

  it('answers 415 invalid_request to a JSON body, and never the envelope', async () => {
    const response = await call(service.baseUrl, 'POST', TOKEN, { json: credentials() });
    expect(response.status).to.equal(415);
    expect(response.body.error).to.equal('invalid_request');
  });

  it('answers invalid_request without a body, and 413 to an oversized one', async () => {
    const empty = await call(service.baseUrl, 'POST', TOKEN, {});
    expect(empty.status).to.equal(400);
    expect(empty.body.error).to.equal('invalid_request');
    const huge = await call(service.baseUrl, 'POST', TOKEN, { form: { ...credentials(), scope: 'x'.repeat(70_000) } });
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.equal('invalid_request');
  });

  it('answers 405 with Allow to other methods', async () => {
    const response = await call(service.baseUrl, 'GET', TOKEN);
    expect(response.status).to.equal(405);
    expect(response.headers.get('allow')).to.equal('POST');
    expect(response.body.error.code).to.equal('method_not_allowed');
  });
});

/** A token request from a chosen loopback address (127.0.0.0/8 all reaches the service). */
function tokenRequestFrom(baseUrl: string, localAddress: string, body: string): Promise<{ status: number; headers: Headers; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${TOKEN}`, { method: 'POST', localAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', async () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        const parsed = JSON.parse(text);
        try {
          await assertMatchesContract('POST', TOKEN, res.statusCode!, headers, parsed);
          resolve({ status: res.statusCode!, headers, body: parsed });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the token endpoint under credential stuffing', () => {
  let service: TestService;
  let client: { client_id: string; client_secret: string };

  before(async () => {
    service = await startTestService({ env: { TOKEN_RATE_LIMIT: '10', TOKEN_RATE_LIMIT_WINDOW: '60' } });
    const org = await service.seed.org();
    const facility = await service.seed.facility(org.id);
    client = await service.seed.client({ orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'] });
  });
  after(() => service.close());

  it('throttles one address with 429 and Retry-After while another still gets tokens', async () => {
    const stuffing = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'guess' }).toString();
    const statuses: number[] = [];
    let throttled: { headers: Headers; body: any } | undefined;
    for (let i = 0; i < 15; i++) {
      const response = await tokenRequestFrom(service.baseUrl, '127.0.0.2', stuffing);
      statuses.push(response.status);
      if (response.status === 429) throttled = response;
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).to.equal(true);
    expect(statuses.slice(10).every((s) => s === 429)).to.equal(true);
    expect(throttled!.body.error).to.equal('rate_limited');
    expect(Number(throttled!.headers.get('retry-after'))).to.be.within(1, 60);

    const legitimate = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }).toString();
    const other = await tokenRequestFrom(service.baseUrl, '127.0.0.3', legitimate);
    expect(other.status).to.equal(200);
  });

  it('tells the quota on every answer (RateLimit-Policy and RateLimit), before it runs out, and Retry-After on 429', async () => {
    const legitimate = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }).toString();
    const wrong = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'guess' }).toString();
    const unsupported = new URLSearchParams({ grant_type: 'password' }).toString();
    const answers = [];
    for (const body of [legitimate, wrong, unsupported]) answers.push(await tokenRequestFrom(service.baseUrl, '127.0.0.4', body));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 401, 400]);
    for (const [i, answer] of answers.entries()) {
      expect(answer.headers.get('ratelimit-policy')).to.equal('"token";q=10;w=60');
      const [, remaining, reset] = /^"token";r=(\d+);t=(\d+)$/.exec(answer.headers.get('ratelimit') ?? '')!;
      expect(Number(remaining)).to.equal(10 - (i + 1));
      expect(Number(reset)).to.be.within(1, 60);
      expect(answer.headers.get('retry-after')).to.equal(null);
    }
    for (let i = 0; i < 7; i++) await tokenRequestFrom(service.baseUrl, '127.0.0.4', wrong);
    const refused = await tokenRequestFrom(service.baseUrl, '127.0.0.4', wrong);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('ratelimit')).to.match(/^"token";r=0;t=\d+$/);
    expect(refused.headers.get('ratelimit-policy')).to.equal('"token";q=10;w=60');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
