// After the suite's whole activity (every token issued, client created and webhook registered
// by the files before this one, plus a full round here: tokens by form and HTTP Basic, webhook
// registration, a signed test delivery, a real delivery to a local receiver, a revocation),
// none of the secrets it ever saw is readable at rest: not in the SQLite database file, its
// WAL or shared memory (byte by byte, as UTF-8, UTF-16, base64 and hex), not in any row of any
// PostgreSQL table, not in the service's logs.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { TestService } from '../support/service.js';
import { ALL_SCOPES } from '../support/service.js';
import { sqlitePath } from '../../server/src/config/config.js';
import { figures } from './support/figures.js';
import { rememberedSecrets, type SecretKind } from './support/secrets.js';
import { foundNeedles } from './support/needle-search.js';
import { bearer, issueToken, jsonBody, seedClient, sendOk, suiteService, TOKEN_PATH } from './support/suite.js';

/** Each secret whole and its random part alone, in the encodings a careless store might use. */
function needles(secret: string): Buffer[] {
  const random = secret.replace(/^ofx_[a-z]+_/, '');
  const texts = [secret, random];
  return texts.flatMap((t) => [
    Buffer.from(t, 'utf8'),
    Buffer.from(t, 'utf16le'),
    Buffer.from(Buffer.from(t, 'utf8').toString('base64').replace(/=+$/, ''), 'utf8'),
    Buffer.from(Buffer.from(t, 'utf8').toString('hex'), 'utf8'),
  ]);
}

/** Everything stored, as named byte blobs: the SQLite files, or every PostgreSQL table's rows. */
async function storedBytes(service: TestService): Promise<Map<string, Buffer>> {
  const places = new Map<string, Buffer>();
  const file = sqlitePath(service.config.databaseUrl);
  if (file) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) if (existsSync(file + suffix)) places.set(`sqlite${suffix || ' file'}`, readFileSync(file + suffix));
    return places;
  }
  const db = service.running.app.db;
  const tables: string[] = (await db.raw(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`)).rows.map((r: { table_name: string }) => r.table_name);
  for (const table of tables) {
    const rows = await db(table).select('*');
    const text = JSON.stringify(rows, (_key, value) => (value && value.type === 'Buffer' && Array.isArray(value.data) ? Buffer.from(value.data).toString('latin1') : value));
    places.set(`table ${table}`, Buffer.from(text, 'utf8'));
  }
  return places;
}

describe('secrets at rest after the suite', function () {
  this.timeout(120_000);
  let service: TestService;
  let receiver: Server;
  let received = 0;
  let clientId: string;

  before(async () => {
    service = await suiteService();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/secrets`;

    // A full round of this suite's own activity, on an organization of its own.
    const org = (await service.seed.org('Secrets round')).id;
    const facility = (await service.seed.facility(org)).id;
    await service.seed.data({ orgId: org, facilityId: facility, residents: 2, vitalRounds: 1 });
    const client = await seedClient(service, { orgId: org, facilityIds: [facility], scopes: ALL_SCOPES });
    clientId = client.client_id;
    const token = await issueToken(service, client);
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const viaBasic = await sendOk(service, { method: 'POST', target: TOKEN_PATH, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` }, body: 'grant_type=client_credentials', localAddress: '127.0.8.1' });
    expect(viaBasic.status).to.equal(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await sendOk(service, { method: 'POST', target: `/api/v1/ofctx/${org}/webhooks`, ...jsonBody({ callback_url: callback, event_types: ['resident.admitted'], description: `secrets ${i}` }, bearer(token)) });
      expect(res.status).to.equal(201);
      ids.push(res.body.data.id);
    }
    expect((await sendOk(service, { method: 'POST', target: `/api/v1/ofctx/${org}/webhooks/${ids[0]}/test`, ...jsonBody({ event_type: 'resident.admitted' }, bearer(token)) })).status).to.equal(200);
    expect((await sendOk(service, { method: 'DELETE', target: `/api/v1/ofctx/${org}/webhooks/${ids[2]}`, headers: bearer(token) })).status).to.equal(200);
    const resident: string = await service.running.app.db('residents').where({ facility_id: facility }).first('id').then((r: { id: string }) => r.id);
    await service.running.webhooks.emitEvent({ orgId: org, facilityId: facility, type: 'resident.admitted', residentId: resident });
    for (let waited = 0; received < 2 && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(received, 'both active subscriptions got the event').to.equal(2);
    await sendOk(service, { method: 'GET', target: `/api/v1/ofctx/${org}/${facility}/residents`, headers: bearer(token) });
  });
  after(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

  const secretsOfEachKind = () => {
    const secrets = rememberedSecrets();
    const count = (kind: SecretKind) => secrets.filter((s) => s.kind === kind).length;
    expect(count('client_secret'), 'client secrets searched').to.be.greaterThan(0);
    expect(count('access_token'), 'access tokens searched').to.be.greaterThan(0);
    expect(count('signing_secret'), 'signing secrets searched').to.be.greaterThan(0);
    return secrets;
  };

  /** Each secret's needles, and the description of a secret one of them names. */
  const searchOf = (secrets: ReturnType<typeof secretsOfEachKind>) => {
    const all: Buffer[] = [];
    const owner: string[] = [];
    for (const { kind, value } of secrets) {
      for (const needle of needles(value)) {
        all.push(needle);
        owner.push(`${kind} ${value.slice(0, 10)}...`);
      }
    }
    return { all, owner };
  };

  it('searches with a one-pass search that finds exactly what Buffer.includes finds', () => {
    for (let round = 0; round < 50; round++) {
      const haystack = randomBytes(4000);
      haystack.fill(0x61, 100, 600); // a run of one byte: windows whose hashes repeat
      const probes = Array.from({ length: 40 }, (_, i) => {
        const length = 1 + ((i * 7 + round) % 60);
        const start = (i * 97 + round * 13) % (haystack.length - length);
        return i % 3 === 0 ? Buffer.from(haystack.subarray(start, start + length)) : i % 3 === 1 ? Buffer.alloc(length, 0x61) : randomBytes(length);
      });
      const found = foundNeedles(haystack, probes);
      probes.forEach((probe, index) => expect(found.has(index), `round ${round} probe ${index}`).to.equal(haystack.includes(probe)));
    }
  });

  it('holds no client secret, signing secret or access token in the database', async () => {
    const secrets = secretsOfEachKind();
    const places = await storedBytes(service);
    const { all, owner } = searchOf(secrets);
    // The positive control goes through the same search, beside the secrets: a client id,
    // stored in clear, is found (the search reads live data and finds what is there).
    const control = all.length;
    all.push(Buffer.from(clientId));
    let controlFound = false;
    const found: string[] = [];
    for (const [place, bytes] of places) {
      for (const index of foundNeedles(bytes, all)) {
        if (index === control) controlFound = true;
        else found.push(`${owner[index]} in ${place}`);
      }
    }
    expect(controlFound, 'the positive control (a client id) is found').to.equal(true);
    figures.secrets.searched = secrets.length;
    figures.secrets.places = places.size + 1;
    figures.secrets.found += found.length;
    const kinds = ['client_secret', 'access_token', 'signing_secret'].map((k) => `${secrets.filter((s) => s.kind === k).length} ${k}s`).join(', ');
    console.log(`      searched ${secrets.length} secrets (${kinds}) in ${[...places.keys()].join(', ')}: ${found.length} found`);
    expect(found).to.deep.equal([]);
  });

  it('never wrote one to the logs', () => {
    const secrets = secretsOfEachKind();
    const logs = Buffer.from(service.logs(), 'utf8');
    expect(logs.includes(Buffer.from('webhook subscription registered')), 'the positive control (a log line) is found').to.equal(true);
    const { all, owner } = searchOf(secrets);
    const found = [...foundNeedles(logs, all)].map((index) => owner[index]!);
    figures.secrets.found += found.length;
    console.log(`      searched ${secrets.length} secrets in ${logs.length} bytes of logs: ${found.length} found`);
    expect(found).to.deep.equal([]);
  });
});
