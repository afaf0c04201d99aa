// The SDK signing its own client assertions (SMART Backend Services) against the real
// service, with keys made by openssl exactly as the README shows, registered through the
// real ops CLI from the PEM public key.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { contractCheckingFetch } from '../../../test/support/contract.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { AuthenticationError, createClient } from '../../src/index.js';
import { rejectionOf } from '../fixtures/api.js';

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/** The README's commands: a private key (PKCS#8 PEM) and its public key. */
function opensslKeyPair(kind: 'rsa' | 'ec', dir: string): { privatePem: string; publicFile: string } {
  const privateFile = join(dir, `${kind}-private.pem`);
  const publicFile = join(dir, `${kind}-public.pem`);
  if (kind === 'rsa') openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', privateFile]);
  else openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384', '-out', privateFile]);
  openssl(['pkey', '-in', privateFile, '-pubout', '-out', publicFile]);
  return { privatePem: readFileSync(privateFile, 'utf8'), publicFile };
}

describe('SDK with private_key_jwt against the real service', function () {
  this.timeout(60_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  const dir = mkdtempSync(join(tmpdir(), 'sdk-keys-'));

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId)).id;
    await service.seed.data({ orgId, facilityId, residents: 3 });
  });
  after(() => service?.close());

  async function register(publicFile: string): Promise<{ client_id: string; key_ids: string[] }> {
    const env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey! };
    return jsonOf(await runOps(['client', 'create', '--org', orgId, '--facilities', facilityId, '--scopes', 'residents.read coverage.read', '--name', 'sdk smart', '--jwks', publicFile, '--json'], env));
  }

  for (const [kind, algorithm] of [['rsa', 'RS384'], ['ec', 'ES384']] as const) {
    it(`signs its own ${algorithm} assertions with an openssl key and reads residents`, async () => {
      const { privatePem, publicFile } = opensslKeyPair(kind, dir);
      const registered = await register(publicFile);
      const client = createClient({
        baseUrl: service.baseUrl,
        clientId: registered.client_id,
        privateKey: privatePem,
        keyId: registered.key_ids[0]!,
        algorithm,
        // SMART v2 scopes are aliases: system/Patient.rs is residents.read.
        ...(algorithm === 'ES384' ? { scopes: ['system/Patient.rs'] } : {}),
        fetch: contractCheckingFetch,
      });
      const page = await client.facility(orgId, facilityId).residents.list();
      expect(page.data).to.have.lengthOf(3);
    });
  }

  it('is refused, typed, with a key that was not registered', async () => {
    const registered = await register(opensslKeyPair('ec', dir).publicFile);
    const stranger = opensslKeyPair('ec', dir);
    const client = createClient({
      baseUrl: service.baseUrl,
      clientId: registered.client_id,
      privateKey: stranger.privatePem,
      keyId: registered.key_ids[0]!,
      algorithm: 'ES384',
      fetch: contractCheckingFetch,
    });
    const error = await rejectionOf(client.facility(orgId, facilityId).residents.list());
    expect(error).to.be.instanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).to.equal('invalid_client');
  });

  it('signs a fresh assertion (new jti, exp 5 minutes ahead) for every attempt, retries included', async () => {
    const { privatePem } = opensslKeyPair('ec', dir);
    const assertions: string[] = [];
    const base = 'https://api.ofctx.test';
    nock.disableNetConnect();
    try {
      nock(base)
        .post('/api/v1/oauth/token', (body: string) => assertions.push(new URLSearchParams(body).get('client_assertion')!) > 0)
        .reply(503, { error: 'server_error' })
        .post('/api/v1/oauth/token', (body: string) => assertions.push(new URLSearchParams(body).get('client_assertion')!) > 0)
        .reply(200, { access_token: 'ofx_at_x', token_type: 'Bearer', expires_in: 3600, scope: 'residents.read' })
        .get(/residents/)
        .reply(200, { data: [], meta: { page: { page: 1, page_size: 50, total: 0 } }, error: null });
      const client = createClient({ baseUrl: base, clientId: 'ofx_ci_abc', privateKey: privatePem, keyId: 'k1', algorithm: 'ES384', maxRetryWaitMs: 5000 });
      await client.facility('6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60', '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21').residents.list();
    } finally {
      nock.cleanAll();
      nock.enableNetConnect();
    }
    expect(assertions).to.have.lengthOf(2);
    const [first, second] = assertions.map((a) => ({ header: decodeProtectedHeader(a), claims: decodeJwt(a) }));
    expect(first!.header).to.include({ alg: 'ES384', kid: 'k1' });
    expect(first!.claims).to.include({ iss: 'ofx_ci_abc', sub: 'ofx_ci_abc', aud: `${base}/api/v1/oauth/token` });
    expect(first!.claims.exp! - first!.claims.iat!).to.equal(300);
    expect(first!.claims.jti).to.be.a('string').and.not.equal(second!.claims.jti);
  });

  it('refuses options that cannot work, before sending anything', () => {
    const base = { baseUrl: service.baseUrl, clientId: 'ofx_ci_x' };
    expect(() => createClient({ ...base })).to.throw(TypeError, /clientSecret is required/);
    expect(() => createClient({ ...base, clientSecret: 's', privateKey: 'k', keyId: 'k', algorithm: 'RS384' })).to.throw(TypeError, /not both/);
    expect(() => createClient({ ...base, privateKey: 'pem', algorithm: 'RS384' })).to.throw(TypeError, /keyId/);
    expect(() => createClient({ ...base, privateKey: 'pem', keyId: 'k', algorithm: 'HS256' as never })).to.throw(TypeError, /RS384 or ES384/);
  });
});
