// SMART Backend Services against the real service: discovery, private_key_jwt assertions
// signed by jose (RS384, ES384), every way an assertion can be wrong (all invalid_client,
// with the reason only in the log), SMART v2 scope aliases, and JWKS URLs.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createClient, revokeClient } from '../../src/auth/clients.js';
import { parsePublicJwks } from '../../src/auth/client-keys.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';

const TOKEN = '/api/v1/oauth/token';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

interface SigningKey {
  alg: 'RS384' | 'ES384';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(alg: 'RS384' | 'ES384', kid: string = randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

function jwks(...keys: SigningKey[]): string {
  return JSON.stringify({ keys: keys.map((k) => k.publicJwk) });
}

interface AssertionOptions {
  key: SigningKey;
  clientId: string;
  aud: string;
  kid?: string;
  jti?: string;
  iss?: string;
  /** Seconds from now. */
  exp?: number;
}

function assertion(o: AssertionOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: o.key.alg, kid: o.kid ?? o.key.kid, typ: 'JWT' })
    .setIssuer(o.iss ?? o.clientId)
    .setSubject(o.clientId)
    .setAudience(o.aud)
    .setJti(o.jti ?? randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + (o.exp ?? 240))
    .sign(o.key.privateKey);
}

/** A JWKS host whose document the test can change, counting fetches. */
async function startJwksHost(): Promise<{ url: string; serve(doc: string): void; fetches(): number; close(): Promise<void> }> {
  let doc = '{"keys":[]}';
  let fetches = 0;
  const server: Server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(doc);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    serve: (d) => (doc = d),
    fetches: () => fetches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SMART Backend Services sign-in', function () {
  this.timeout(30_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let rsa: SigningKey;
  let ec: SigningKey;
  let clientId: string;
  let aud: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId)).id;
    [rsa, ec] = await Promise.all([signingKey('RS384'), signingKey('ES384')]);
    const client = await createClient(service.running.app.db, {
      orgId,
      facilityIds: [facilityId],
      scopes: ['residents.read', 'coverage.read', 'clinical.read'],
      name: 'backend service',
      keys: { jwks: jwks(rsa, ec), jwks_url: null },
      withoutSecret: true,
    });
    expect(client.client_secret).to.equal(null);
    clientId = client.client_id;
    aud = `${service.baseUrl}${TOKEN}`;
  });
  after(() => service?.close());

  const tokenRequest = (fields: Record<string, string>, base = service.baseUrl) =>
    call(base, 'POST', TOKEN, { form: { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, ...fields } });

  async function expectInvalidClient(fields: Record<string, string>, logged: RegExp, base = service.baseUrl, logs = () => service.logs()): Promise<void> {
    const response = await tokenRequest(fields, base);
    expect(response.status).to.equal(401);
    // Nothing more than invalid_client reaches the caller...
    expect(response.body).to.deep.equal({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    // ...while the log says what was wrong.
    expect(logs()).to.match(logged);
  }

  describe('discovery', () => {
    for (const path of ['/api/v1/.well-known/smart-configuration', `/api/v1/fhir/R4/${randomUUID()}/${randomUUID()}/.well-known/smart-configuration`]) {
      it(`serves the SMART configuration at ${path.replace(/[0-9a-f-]{36}/g, '{id}')}`, async () => {
        const response = await call(service.baseUrl, 'GET', path);
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.include({
          token_endpoint: aud,
          token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic', 'client_secret_post'],
          token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
          grant_types_supported: ['client_credentials'],
          capabilities: ['client-confidential-asymmetric', 'permission-v1', 'permission-v2'],
        });
        expect(response.body.scopes_supported).to.include.members([
          'system/*.rs', 'system/*.read', 'system/Patient.rs', 'system/Patient.read', 'system/Coverage.r', 'system/Observation.s',
          'system/AllergyIntolerance.rs', 'system/Condition.rs', 'residents.read',
        ]);
      });
    }
  });

  describe('assertions that authenticate', () => {
    for (const alg of ['RS384', 'ES384'] as const) {
      it(`issues a token for an assertion signed ${alg} by jose, usable on the API`, async () => {
        const key = alg === 'RS384' ? rsa : ec;
        const response = await tokenRequest({ client_assertion: await assertion({ key, clientId, aud }) });
        expect(response.status).to.equal(200);
        expect(response.body).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'residents.read coverage.read clinical.read' });
        const residents = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents`, { token: response.body.access_token });
        expect(residents.status).to.equal(200);
      });
    }

    it('accepts client_id in the body when it names the same client', async () => {
      const response = await tokenRequest({ client_id: clientId, client_assertion: await assertion({ key: rsa, clientId, aud }) });
      expect(response.status).to.equal(200);
    });

    it('grants SMART v2 scopes as aliases and states the form granted', async () => {
      const scope = 'system/Patient.rs system/Observation.rs system/AllergyIntolerance.rs';
      const response = await tokenRequest({ client_assertion: await assertion({ key: ec, clientId, aud }), scope });
      expect(response.status).to.equal(200);
      // clinical.read reads five R4 types: the answer says so (RFC 6749 section 3.3).
      expect(response.body.scope).to.equal(`${scope} system/Condition.rs system/ServiceRequest.rs system/MedicationRequest.rs system/DiagnosticReport.rs`);
      const token = response.body.access_token as string;
      expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents`, { token })).status).to.equal(200);
      expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/clinical/Observation`, { token })).status).to.equal(200);
      expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/coverage`, { token })).status).to.equal(403);
    });

    it('grants one clinical type with its group, and names every type granted', async () => {
      const response = await tokenRequest({ client_assertion: await assertion({ key: rsa, clientId, aud }), scope: 'system/Observation.rs' });
      expect(response.status).to.equal(200);
      expect(response.body.scope).to.equal('system/Observation.rs system/AllergyIntolerance.rs system/Condition.rs system/ServiceRequest.rs system/MedicationRequest.rs system/DiagnosticReport.rs');
    });

    // The bulk-data-client's default, and what Inferno's multi-patient tests send.
    for (const scope of ['system/*.rs', 'system/*.read']) {
      it(`grants ${scope}, stated as asked, usable on every read type`, async () => {
        const response = await tokenRequest({ client_assertion: await assertion({ key: rsa, clientId, aud }), scope });
        expect(response.status).to.equal(200);
        expect(response.body.scope).to.equal(scope);
        const token = response.body.access_token as string;
        for (const path of ['residents', 'coverage', 'clinical/Observation']) {
          expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/${path}`, { token })).status, path).to.equal(200);
        }
        expect((await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${orgId}/${facilityId}/Condition`, { token, headers: { accept: 'application/fhir+json' } })).status).to.equal(200);
      });
    }

    it('grants v1 and v2 scopes of one type with c, u, d and write dropped, stating what was granted', async () => {
      const response = await tokenRequest({ client_assertion: await assertion({ key: rsa, clientId, aud }), scope: 'system/Patient.* system/Coverage.cruds' });
      expect(response.status).to.equal(200);
      expect(response.body.scope).to.equal('system/Patient.read system/Coverage.rs system/CoverageEligibilityResponse.rs');
    });

    it('refuses SMART scopes it cannot grant with invalid_scope, saying why', async () => {
      const cases: Array<[string, string]> = [
        ['system/Patient.write', 'ofctx grants only reading and searching'],
        ['system/Observation.cud system/Patient.rs', 'ofctx grants only reading and searching'],
        ['system/Consent.rs system/Patient.rs', 'Consent is not a type ofctx serves'],
        ['patient/*.rs', 'ask system/*.rs'],
        ['system/Observation.rs?date=2026', 'date is a date parameter, and granular scopes take token parameters; Observation takes category, code, status'],
        ['system/Observation.rs?colour=red', 'colour is not a search parameter of Observation'],
      ];
      for (const [scope, reason] of cases) {
        const response = await tokenRequest({ client_assertion: await assertion({ key: rsa, clientId, aud }), scope });
        expect(response.status, scope).to.equal(400);
        expect(response.body.error, scope).to.equal('invalid_scope');
        expect(response.body.error_description, scope).to.contain(reason);
      }
    });
  });

  describe('assertions that do not authenticate: always invalid_client', () => {
    it('a replayed jti', async () => {
      const signed = await assertion({ key: rsa, clientId, aud });
      expect((await tokenRequest({ client_assertion: signed })).status).to.equal(200);
      await expectInvalidClient({ client_assertion: signed }, /jti was already used/);
    });

    it('an expired assertion', async () => {
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud, exp: -120 }) }, /ERR_JWT_EXPIRED/);
    });

    it('an exp more than five minutes ahead', async () => {
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud, exp: 900 }) }, /more than 5 minutes ahead/);
    });

    it('a wrong aud', async () => {
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud: 'https://other.example/api/v1/oauth/token' }) }, /aud\\?" claim/);
    });

    it('an unknown kid', async () => {
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud, kid: 'not-registered' }) }, /ERR_JWKS_NO_MATCHING_KEY/);
    });

    it('a key the client did not register (signed with another key under a registered kid)', async () => {
      const stranger = await signingKey('RS384', rsa.kid);
      await expectInvalidClient({ client_assertion: await assertion({ key: stranger, clientId, aud }) }, /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    });

    it('alg none', async () => {
      const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const unsigned = `${b64({ alg: 'none', kid: rsa.kid })}.${b64({ iss: clientId, sub: clientId, aud, jti: randomUUID(), exp: now + 60 })}.`;
      await expectInvalidClient({ client_assertion: unsigned }, /algorithm \\?"none\\?" is not allowed/);
    });

    it('HS256 with the public key as the HMAC secret', async () => {
      const { importJWK } = await import('jose');
      const spki = await exportSPKI((await importJWK(rsa.publicJwk, 'RS384', { extractable: true })) as CryptoKey);
      const now = Math.floor(Date.now() / 1000);
      for (const secret of [new TextEncoder().encode(spki), new TextEncoder().encode(JSON.stringify(rsa.publicJwk))]) {
        const forged = await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
          .setIssuer(clientId)
          .setSubject(clientId)
          .setAudience(aud)
          .setJti(randomUUID())
          .setExpirationTime(now + 60)
          .sign(secret);
        await expectInvalidClient({ client_assertion: forged }, /algorithm \\?"HS256\\?" is not allowed/);
      }
    });

    it('iss not equal to sub, a client_id naming another client, garbage, and a client with a secret only', async () => {
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud, iss: 'ofx_ci_someoneelse' }) }, /iss and sub must both be the client id/);
      await expectInvalidClient({ client_id: 'ofx_ci_other', client_assertion: await assertion({ key: rsa, clientId, aud }) }, /client_id differs/);
      await expectInvalidClient({ client_assertion: 'not.a.jwt' }, /not a signed JWT/);
      const secretOnly = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['residents.read'] });
      await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId: secretOnly.client_id, aud }) }, /no active credential with public keys/);
    });

    it('a revoked credential', async () => {
      const key = await signingKey('ES384');
      const revoked = await createClient(service.running.app.db, {
        orgId,
        facilityIds: [facilityId],
        scopes: ['residents.read'],
        name: 'to revoke',
        keys: { jwks: jwks(key), jwks_url: null },
        withoutSecret: true,
      });
      expect((await tokenRequest({ client_assertion: await assertion({ key, clientId: revoked.client_id, aud }) })).status).to.equal(200);
      await revokeClient(service.running.app.db, revoked.client_id);
      await expectInvalidClient({ client_assertion: await assertion({ key, clientId: revoked.client_id, aud }) }, /no active credential with public keys/);
    });

    it('a key-only credential never authenticates with a secret', async () => {
      const response = await call(service.baseUrl, 'POST', TOKEN, { form: { grant_type: 'client_credentials', client_id: clientId, client_secret: 'none' } });
      expect(response.status).to.equal(401);
      expect(response.body.error).to.equal('invalid_client');
    });

    it('a wrong client_assertion_type, or an assertion with a secret too, is invalid_request', async () => {
      const signed = await assertion({ key: rsa, clientId, aud });
      const wrongType = await tokenRequest({ client_assertion: signed, client_assertion_type: 'urn:other' });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.error).to.equal('invalid_request');
      const twice = await tokenRequest({ client_assertion: signed, client_secret: 'x' });
      expect(twice.status).to.equal(400);
      expect(twice.body.error).to.equal('invalid_request');
    });
  });

  describe('JWKS URLs', () => {
    it('fetches the keys, caches them, and fetches again for an unknown kid (key rotation)', async () => {
      const host = await startJwksHost();
      try {
        const first = await signingKey('ES384');
        host.serve(jwks(first));
        const client = await createClient(service.running.app.db, {
          orgId,
          facilityIds: [facilityId],
          scopes: ['residents.read'],
          name: 'remote keys',
          keys: { jwks: null, jwks_url: host.url },
          withoutSecret: true,
        });
        expect((await tokenRequest({ client_assertion: await assertion({ key: first, clientId: client.client_id, aud }) })).status).to.equal(200);
        expect((await tokenRequest({ client_assertion: await assertion({ key: first, clientId: client.client_id, aud }) })).status).to.equal(200);
        expect(host.fetches()).to.equal(1);

        const second = await signingKey('RS384');
        host.serve(jwks(first, second));
        await sleep(1100); // past the refetch cooldown
        expect((await tokenRequest({ client_assertion: await assertion({ key: second, clientId: client.client_id, aud }) })).status).to.equal(200);
        expect(host.fetches()).to.equal(2);
      } finally {
        await host.close();
      }
    });

    it('refuses a JWKS URL pointing inside: at sign-in (nothing fetched) and in the ops CLI', async () => {
      const host = await startJwksHost();
      const strict = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '' } });
      try {
        const key = await signingKey('RS384');
        host.serve(jwks(key));
        const org = await strict.seed.org();
        const facility = await strict.seed.facility(org.id);
        const client = await createClient(strict.running.app.db, {
          orgId: org.id,
          facilityIds: [facility.id],
          scopes: ['residents.read'],
          name: 'inside',
          keys: { jwks: null, jwks_url: host.url.replace('http:', 'https:') },
          withoutSecret: true,
        });
        await expectInvalidClient(
          { client_assertion: await assertion({ key, clientId: client.client_id, aud: `${strict.baseUrl}${TOKEN}` }) },
          /JWKS URL is a loopback address/,
          strict.baseUrl,
          () => strict.logs(),
        );
        expect(host.fetches()).to.equal(0);

        const env = { DATABASE_URL: strict.database.url };
        for (const url of ['https://127.0.0.1/jwks.json', 'https://169.254.169.254/latest/jwks', 'http://keys.example/jwks.json']) {
          const run = await runOps(['client', 'create', '--org', org.id, '--facilities', facility.id, '--scopes', 'residents.read', '--name', 'x', '--jwks-url', url, '--json'], env);
          expect(run.code, url).to.equal(2);
          expect(run.stderr, url).to.match(/--jwks-url: the JWKS URL (is a|must be an https)/);
        }
      } finally {
        await strict.close();
        await host.close();
      }
    });
  });

  describe('the ops CLI', () => {
    it('registers a credential from a JWKS file, without a secret, that signs in', async () => {
      const { writeFileSync, mkdtempSync } = await import('node:fs');
      const { join } = await import('node:path');
      const { tmpdir } = await import('node:os');
      const file = join(mkdtempSync(join(tmpdir(), 'jwks-')), 'jwks.json');
      const key = await signingKey('ES384');
      writeFileSync(file, jwks(key));
      const env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey! };
      const created = jsonOf(await runOps(['client', 'create', '--org', orgId, '--facilities', facilityId, '--scopes', 'coverage.read', '--name', 'smart', '--jwks', file, '--json'], env));
      expect(created).to.include({ client_secret: null });
      expect(created.auth_methods).to.deep.equal(['private_key_jwt']);
      const response = await tokenRequest({ client_assertion: await assertion({ key, clientId: created.client_id, aud }) });
      expect(response.status).to.equal(200);
      expect(response.body.scope).to.equal('coverage.read');
    });

    it('refuses a JWKS with private or symmetric keys', () => {
      expect(() => parsePublicJwks(JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'a' }] }))).to.throw(/only RSA/);
      expect(() => parsePublicJwks(JSON.stringify({ keys: [{ ...rsa.publicJwk, d: 'x' }] }))).to.throw(/private key material/);
      expect(() => parsePublicJwks(JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', kid: 'p256' }] }))).to.throw(/P-384/);
      expect(() => parsePublicJwks('{"keys":[{"kty":"RSA","n":"x","e":"AQAB"}]}')).to.throw(/no "kid"/);
    });
  });

  describe('PUBLIC_BASE_URL', () => {
    it('names the token endpoint and the only aud accepted behind a proxy', async () => {
      const proxied = await startTestService({ env: { PUBLIC_BASE_URL: 'https://api.partner-facing.example/' }, database: service.database });
      try {
        const publicAud = 'https://api.partner-facing.example/api/v1/oauth/token';
        const config = await call(proxied.baseUrl, 'GET', '/api/v1/.well-known/smart-configuration');
        expect(config.body.token_endpoint).to.equal(publicAud);
        expect((await tokenRequest({ client_assertion: await assertion({ key: rsa, clientId, aud: publicAud }) }, proxied.baseUrl)).status).to.equal(200);
        await expectInvalidClient({ client_assertion: await assertion({ key: rsa, clientId, aud: `${proxied.baseUrl}${TOKEN}` }) }, /aud\\?" claim/, proxied.baseUrl, () => proxied.logs());
      } finally {
        await proxied.close();
      }
    });
  });

  describe('replay across instances', () => {
    it('of one assertion sent to two instances on one database at once, exactly one is accepted', async () => {
      const second = await startTestService({ database: service.database });
      try {
        for (let round = 0; round < 5; round++) {
          const signed = await assertion({ key: ec, clientId, aud });
          // Each instance is asked with its own URL as aud: the same jti, two valid assertions.
          const other = await assertion({ key: ec, clientId, aud: `${second.baseUrl}${TOKEN}`, jti: JSON.parse(Buffer.from(signed.split('.')[1]!, 'base64url').toString()).jti });
          const answers = await Promise.all([tokenRequest({ client_assertion: signed }), tokenRequest({ client_assertion: other }, second.baseUrl)]);
          expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 401]);
        }
      } finally {
        await second.close();
      }
    });
  });
});
