// Instances that come and go (issue 43): three service processes on one PostgreSQL database
// under mixed load, one of them SIGKILLed every INSTANCE_CHURN_KILL_EVERY seconds (10) and
// started again on its ports, for INSTANCE_CHURN_SECONDS (120). The load, a few dozen
// requests a second (correctness under churn, not throughput):
//   - a partner lists residents and coverage and reads residents (/ofctx/, a bearer token);
//   - two MLLP senders send ADT^A01 (with an IN1) and A08, each waiting for its ACK and, when
//     the connection dies first, sending the same message again to another instance;
//   - an EHR posts FHIR transaction Bundles, resent the same way when the answer is lost;
//   - three webhook receivers (fast, slow, failing the first attempt of a third of the
//     deliveries) verify every request with @ofctx/verifier;
//   - bulk $exports one after the other, polled and downloaded from whichever instance lives;
//   - eligibility checks queued by the admissions, answered by the clearinghouse double;
//   - token requests from one address, against a limit of TOKEN_LIMIT per hour.
// Then every instance is up again, the queues drain, and the database is audited: every AA'd
// message and every 200'd Bundle is there, none applied twice (control ids, versions), every
// event delivered at least once to every subscription (duplicates counted), every export and
// check finished, the token limit held across instances, and no answer from a live instance
// was a 5xx (other than a documented 503) or broke the contract. Connections cut by a kill are
// expected and counted. PostgreSQL only: several instances share a PostgreSQL database; on
// SQLite the service is one process by design.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/database.js';
import { call, type TestResponse } from '../support/http.js';
import { ContractViolation, assertMatchesContract } from '../support/contract.js';
import { bundle, ingestPath } from '../support/ingest.js';
import { coverage, MRN, patient } from '../support/fhir-resources.js';
import { hl7Message, MRN_OID, MRN_SYSTEM, segment } from '../support/adt-messages.js';
import { frame, mllpClient, msa, type MllpTestClient } from '../support/mllp.js';
import { startClearinghouseDouble, type ClearinghouseDouble } from '../support/clearinghouse-double.js';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { AccessTokens } from '../../server/src/auth/access-tokens.js';
import { createClient, findClient } from '../../server/src/auth/clients.js';
import { createFacility, createOrganization, setFacilityHl7Code, setFacilityNpi } from '../../server/src/organizations/organizations.js';
import { setConnection } from '../../server/src/eligibility/clearinghouse-connections.js';
import { SigningSecretCipher } from '../../server/src/db/signing-secret-crypto.js';
import { systemResolver } from '../../server/src/webhooks/ssrf-guard.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { TEST_ENCRYPTION_KEY } from '../../server/test/webhooks/support/webhook-service.js';
import { account, describeUnsettled, settled } from './webhooks/support/accounting.js';
import { ALL_EVENT_TYPES } from './webhooks/support/world.js';
import { ChurnReceiver } from './support/churn-receiver.js';
import { expectedFailure, InstancePool, isConnectionFailure, type Slot } from './support/instance-pool.js';
import { figures, type ChurnFigures } from './support/figures.js';
import { send } from './support/raw-http.js';
import { answerFailures } from './support/answer-checks.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';

const SECONDS = Number(process.env.INSTANCE_CHURN_SECONDS ?? 120);
const KILL_EVERY_SECONDS = Number(process.env.INSTANCE_CHURN_KILL_EVERY ?? 10);
const INSTANCES = 3;
const TOKEN_LIMIT = 5;
const TOKEN_ADDRESS = '127.0.43.7';
const SCHEDULE = [0.2, 0.5, 1, 2, 4];
const NPI = '1245319599';
const HL7_HOME = 'CHURN-HOME';
// The queues drain after the load stops: 28 to 65 s seen (a quiet machine lets more load through).
const DRAIN_MS = 240_000;
/** The webhook lease; WEBHOOK_TIMEOUT_MS (WEBHOOK_TIMEOUT) is half of it. */
const LEASE_MS = 3000;
const WEBHOOK_TIMEOUT = 1500;
/**
 * A claim is sent only while its lease holds the timeout and 250 ms more (delivery-worker.ts):
 * an attempt that starts this long after the one before it can only come from a claim taken
 * after the earlier claim's lease ran out, never from two claims held at once.
 */
const LEASE_RAN_OUT_BETWEEN_MS = WEBHOOK_TIMEOUT + 250;

/** A small seeded generator (mulberry32), so a run's choices can be replayed from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('instances that come and go: three instances on one PostgreSQL, one SIGKILLed every 10 s under mixed load (skipped on SQLite)', function () {
  this.timeout((SECONDS + 420) * 1000);
  let database: TestDatabase;
  let db: Knex;
  let pool: InstancePool | undefined;
  let double: ClearinghouseDouble | undefined;
  const receivers: ChurnReceiver[] = [];
  const exportDir = join(tmpdir(), `ofctx-churn-exports-${randomUUID().slice(0, 8)}`);

  before(async function () {
    if (testDatabaseKind !== 'postgres') {
      console.log('      skipped on SQLite: several instances share one PostgreSQL database only (one process per SQLite file, by design)');
      this.skip();
    }
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async function () {
    this.timeout(60_000);
    await pool?.stopAll('SIGKILL');
    for (const r of receivers) await r.close();
    await double?.close();
    await db?.destroy();
    await database?.drop();
    rmSync(exportDir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write, applies none twice, delivers every event and finishes all queued work across ${Math.ceil(SECONDS / KILL_EVERY_SECONDS) - 1} SIGKILLs in ${SECONDS} s`, async () => {
    const seed = Number(process.env.INSTANCE_CHURN_SEED ?? Date.now() % 1_000_000);
    const random = seeded(seed);
    const problems: string[] = [];
    const problem = (text: string) => {
      if (problems.length < 200) problems.push(text);
    };

    // The world: an organization, a facility known to HL7 senders and payers, seeded data to
    // export, a clearinghouse connection, a partner, an EHR feed, a client that asks for tokens.
    const orgId = (await createOrganization(db, 'Churn Care Group')).id;
    const facilityId = (await createFacility(db, orgId, 'Churn Home')).id;
    await setFacilityHl7Code(db, facilityId, HL7_HOME);
    await setFacilityNpi(db, facilityId, NPI);
    await seedFacility(db, { orgId, facilityId, residents: 12, randomSeed: 43 });
    double = await startClearinghouseDouble({ username: 'churn', password: 'core-secret', latencyMs: 250, answer: () => ({ kind: 'active' }) });
    await setConnection(db, new SigningSecretCipher(Buffer.from(TEST_ENCRYPTION_KEY, 'base64')), { allowPrivateTargets: true, resolve: systemResolver }, {
      orgId, url: double.url, protocol: 'soap', username: 'churn', password: 'core-secret', senderId: 'CHURNSENDER', receiverId: 'CLEARINGHOUSE', payers: null, concurrency: 4, usage: 'P',
    });
    const tokens = new AccessTokens(db, 0);
    const partnerScopes = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'];
    const partner = await createClient(db, { orgId, facilityIds: [facilityId], scopes: partnerScopes, name: 'churn partner' });
    const partnerToken = (await tokens.issue((await findClient(db, partner.client_id))!, partnerScopes)).token;
    const ehr = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['ingest.write'], name: 'churn EHR', kind: 'ingest' });
    const ehrToken = (await tokens.issue((await findClient(db, ehr.client_id))!, ['ingest.write'])).token;
    const asker = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['residents.read'], name: 'churn token asker' });

    pool = new InstancePool({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info', // the pool waits for the "listening" line
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      // The world is about churn; request quotas across instances have their own test
      // (test/e2e/client-quotas-instances.test.ts): its senders' resends must never meet one.
      CLIENT_QUOTA_RATE: '100000',
      CLIENT_QUOTA_BURST: '100000',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT),
      WEBHOOK_LEASE_MS: String(LEASE_MS),
      WEBHOOK_POLL_INTERVAL_MS: '200',
      TOKEN_RATE_LIMIT: String(TOKEN_LIMIT),
      TOKEN_RATE_LIMIT_WINDOW: '3600',
      BULK_EXPORT_DIR: exportDir,
      BULK_EXPORT_POLL_INTERVAL_MS: '200',
      BULK_EXPORT_LEASE_MS: '3000',
      BULK_EXPORT_PAGE_SIZE: '5',
      BULK_EXPORT_MAX_JOBS_PER_CLIENT: '4',
      ELIGIBILITY_POLL_INTERVAL_MS: '200',
      ELIGIBILITY_TIMEOUT_MS: '2000',
      ELIGIBILITY_LEASE_MS: '3000',
      ELIGIBILITY_RETRY_BASE_MS: '300',
      ELIGIBILITY_RETRY_MAX_MS: '1500',
    });
    await pool.start(INSTANCES);

    for (const options of [{ name: 'fast' }, { name: 'slow', delayMs: 400 }, { name: 'failing', failFirstAttempts: true }]) {
      const r = new ChurnReceiver(options);
      await r.start();
      receivers.push(r);
    }
    const subscriptionIds: string[] = [];
    for (const r of receivers) {
      const answer = await call(pool.slots[0]!.url, 'POST', `/api/v1/ofctx/${orgId}/webhooks`, { token: partnerToken, json: { callback_url: r.url, event_types: ALL_EVENT_TYPES } });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      r.secret = answer.body.data.signing_secret;
      subscriptionIds.push(answer.body.data.id);
    }

    // What every request is counted as.
    const f: ChurnFigures = {
      seed, seconds: SECONDS, instances: INSTANCES, kills: 0, restarts: 0, requests: 0, statuses: {}, connectionFailures: 0, unexpectedFailures: 0, responses5xx: 0, documented503: 0,
      hl7: { sent: 0, acked: 0, resent: 0 }, bundles: { sent: 0, ok: 0, resent: 0 }, reads: 0,
      webhooks: { events: 0, deliveries: 0, arrivals: 0, duplicates: 0, interrupted: 0, afterStall: 0, failedOnPurpose: 0, lost: 0 },
      exports: { completed: 0, takenOver: 0, resources: 0 }, eligibility: { checks: 0, exchanges: 0, askedTwice: 0 },
      token: { limit: TOKEN_LIMIT, attempts: 0, issued: 0, throttled: 0 }, lostWrites: 0, appliedTwice: 0,
    };
    const count = (status: number) => {
      f.requests++;
      f.statuses[status] = (f.statuses[status] ?? 0) + 1;
      if (status === 503) f.documented503++;
      else if (status >= 500) f.responses5xx++;
    };

    /**
     * One HTTP request to a live instance through call() (its answer checked against the
     * contract). Undefined when the instance was killed under it (counted); a failure of a
     * live instance is a problem.
     */
    async function request(what: string, run: (slot: Slot) => Promise<TestResponse>): Promise<TestResponse | undefined> {
      const slot = await pool!.pick(random);
      const generation = slot.generation;
      const up = slot.up;
      try {
        const answer = await run(slot);
        count(answer.status);
        if (answer.status >= 500 && !(answer.status === 503 && answer.body?.error?.code === 'service_unavailable')) problem(`${what}: ${answer.status} from instance ${slot.index}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        return answer;
      } catch (error) {
        if (!(error instanceof ContractViolation) && isConnectionFailure(error)) {
          if (expectedFailure(slot, generation, up)) {
            f.connectionFailures++;
            return undefined;
          }
          f.unexpectedFailures++;
          problem(`${what}: instance ${slot.index} (alive) failed the connection: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
          return undefined;
        }
        f.unexpectedFailures++;
        problem(`${what}: ${(error as Error).message.slice(0, 500)}`);
        return undefined;
      }
    }

    let running = true;
    const started = Date.now();
    const loops: Array<Promise<void>> = [];
    const every = (ms: number, body: () => Promise<void>) => loops.push((async () => {
      while (running) {
        const t = Date.now();
        await body();
        await sleep(Math.max(0, ms - (Date.now() - t)));
      }
    })());

    // The partner: lists and reads.
    const residentIds = (await db('residents').where({ facility_id: facilityId }).select('id')).map((r: { id: string }) => r.id);
    const base = `/api/v1/ofctx/${orgId}/${facilityId}`;
    every(400, async () => {
      const roll = random();
      const path = roll < 0.4 ? `${base}/residents?page_size=20` : roll < 0.7 ? `${base}/coverage?page_size=20` : `${base}/residents/${residentIds[Math.floor(random() * residentIds.length)]}`;
      const answer = await request(`GET ${path}`, (s) => call(s.url, 'GET', path, { token: partnerToken }));
      if (answer) {
        f.reads++;
        if (answer.status !== 200) problem(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
    });

    // MLLP senders: A01 with an IN1 (a Coverage, so an eligibility check), A08 renaming.
    interface Sent { controlId: string; mrn: string; event: 'A01' | 'A08'; family: string }
    const acked: Sent[] = [];
    const ackMs: number[] = [];
    const FAMILIES = ['Okafor', 'Nakamura', 'Lindqvist', 'Moreau', 'Haddad', 'Kowalski'];
    const memberOf = (mrn: string) => `M${mrn.replace(/[^0-9A-Z]/g, '')}`;
    const messageOf = (s: Sent) => hl7Message(`ADT^${s.event}^ADT_A01`, s.controlId, [
      `EVN|${s.event}|20260115083000`,
      `PID|1||${s.mrn}^^^MAPLEMRN&${MRN_OID}&ISO^MR||${s.family}^Hiro^^^^^L||19410317|M`,
      `PV1|1|I|2W^201^A^${HL7_HOME}`,
      segment('IN1', { 1: '1', 2: 'MEDICARE-A', 3: 'CMS', 4: 'Medicare Part A', 12: '20250101', 36: memberOf(s.mrn) }),
    ], { facility: HL7_HOME, application: 'CHURNADT' });
    for (const sender of [1, 2]) {
      let connection: { client: MllpTestClient; slot: Slot; generation: number } | undefined;
      const admitted: Array<{ mrn: string; family: string }> = [];
      let n = 0;
      every(400, async () => {
        n++;
        let message: Sent;
        if (admitted.length > 0 && n % 3 === 0) {
          const resident = admitted[Math.floor(random() * admitted.length)]!;
          const family = FAMILIES[(FAMILIES.indexOf(resident.family) + 1 + Math.floor(random() * (FAMILIES.length - 1))) % FAMILIES.length]!;
          message = { controlId: `CHURN-${sender}-${n}`, mrn: resident.mrn, event: 'A08', family };
        } else {
          message = { controlId: `CHURN-${sender}-${n}`, mrn: `CH${sender}X${n}`, event: 'A01', family: FAMILIES[n % FAMILIES.length]! };
        }
        // Sent until an ACK comes back, the same message again on a new connection when the
        // instance dies first (what an interface engine does).
        for (let tries = 0; ; tries++) {
          if (tries > 0) f.hl7.resent++;
          if (tries > 20) {
            problem(`HL7 ${message.controlId}: no ACK after 20 connections`);
            return;
          }
          if (!connection || connection.client.socket.destroyed) {
            const slot = await pool!.pick(random);
            const generation = slot.generation;
            try {
              connection = { client: await mllpClient(slot.mllpPort), slot, generation };
            } catch (error) {
              connection = undefined;
              if (!expectedFailure(slot, generation, true)) problem(`MLLP connect to live instance ${slot.index}: ${(error as Error).message}`);
              else f.connectionFailures++;
              await sleep(50);
              continue;
            }
          }
          const { client, slot, generation } = connection;
          f.hl7.sent++;
          try {
            // A minute for the ACK: on a loaded two-core machine a live instance may take tens of seconds.
            const sentAt = Date.now();
            client.write(frame(messageOf(message)));
            const ack = msa((await client.acks(1, 60_000))[0]!);
            ackMs.push(Date.now() - sentAt);
            f.requests++;
            if (ack.code !== 'AA' || ack.controlId !== message.controlId) {
              problem(`HL7 ${message.controlId} (${message.event}): ${ack.code} ${ack.err ?? ''} for ${ack.controlId}`);
              return;
            }
            f.hl7.acked++;
            acked.push(message);
            if (message.event === 'A01') admitted.push({ mrn: message.mrn, family: message.family });
            else admitted.find((a) => a.mrn === message.mrn)!.family = message.family;
            return;
          } catch (error) {
            client.close();
            connection = undefined;
            if (expectedFailure(slot, generation, true)) f.connectionFailures++;
            else {
              f.unexpectedFailures++;
              problem(`HL7 ${message.controlId}: instance ${slot.index} (alive) gave no ACK: ${(error as Error).message}`);
            }
          }
        }
      });
    }

    // The EHR: transaction Bundles of a Patient and a Coverage, resent when the answer is lost.
    const bundled: Array<{ mrn: string; coverageKey: string }> = [];
    let b = 0;
    every(700, async () => {
      b++;
      const mrn = `FHIR-CHURN-${b}`;
      const url = `urn:uuid:${randomUUID()}`;
      const body = JSON.stringify(bundle('transaction', [{ resource: patient(mrn), fullUrl: url }, { resource: coverage({ reference: url }, `COV-CHURN-${b}`) }]));
      for (let tries = 0; tries < 20; tries++) {
        if (tries > 0) f.bundles.resent++;
        f.bundles.sent++;
        const answer = await request(`Bundle ${mrn}`, (s) => call(s.url, 'POST', ingestPath(orgId, facilityId), { token: ehrToken, headers: { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' }, rawBody: body }));
        if (!answer) continue;
        if (answer.status !== 200) {
          problem(`Bundle ${mrn}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
          return;
        }
        f.bundles.ok++;
        bundled.push({ mrn, coverageKey: `COV-CHURN-${b}` });
        return;
      }
      problem(`Bundle ${mrn}: no answer after 20 tries`);
    });

    // Token requests from one address, to whichever instance lives: the limit is one limit.
    const tokenMs: number[] = [];
    every(1000, async () => {
      const slot = await pool!.pick(random);
      const generation = slot.generation;
      const req = { method: 'POST', target: '/api/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: asker.client_id, client_secret: asker.client_secret }).toString(), localAddress: TOKEN_ADDRESS, timeoutMs: 60_000 };
      f.token.attempts++;
      try {
        const res = await send(slot.url, req);
        count(res.status);
        tokenMs.push(res.ms);
        const failures = await answerFailures(req, res);
        if (failures.length > 0) problem(`token request: ${failures.join('; ')}`);
        if (res.status === 200) f.token.issued++;
        else if (res.status === 429) {
          f.token.throttled++;
          if (!(Number(res.headers.get('retry-after')) > 0)) problem('a 429 without Retry-After');
        } else problem(`token request: ${res.status} ${res.text.slice(0, 200)}`);
      } catch (error) {
        if (isConnectionFailure(error) && expectedFailure(slot, generation, true)) f.connectionFailures++;
        else problem(`token request to instance ${slot.index}: ${(error as Error).message}`);
      }
    });

    // Bulk exports, one after another; the job's lease owners are watched for takeovers.
    const exportOwners = new Map<string, Set<string>>();
    const exportJobs: string[] = [];
    const fhirBase = `/api/v1/fhir/R4/${orgId}/${facilityId}`;
    loops.push((async () => {
      while (running) {
        const kicked = await request('$export kick-off', (s) => call(s.url, 'GET', `${fhirBase}/$export`, { token: partnerToken, headers: { prefer: 'respond-async', accept: 'application/fhir+json' } }));
        if (!kicked) continue;
        if (kicked.status === 429) {
          // A job kicked off on an instance killed before it answered may still be running.
          await sleep(Math.max(1, Number(kicked.headers.get('retry-after'))) * 1000);
          continue;
        }
        if (kicked.status !== 202) {
          problem(`$export: ${kicked.status} ${JSON.stringify(kicked.body).slice(0, 300)}`);
          await sleep(1000);
          continue;
        }
        const statusPath = new URL(kicked.headers.get('content-location')!).pathname;
        exportJobs.push(statusPath.split('/').pop()!);
        let manifest: any;
        for (let polls = 0; !manifest && polls < 1000; polls++) {
          await sleep(300);
          const status = await request('$export status', (s) => call(s.url, 'GET', statusPath, { token: partnerToken }));
          if (!status) continue;
          if (status.status === 200) manifest = status.body;
          else if (status.status !== 202) {
            problem(`$export status: ${status.status} ${JSON.stringify(status.body).slice(0, 300)}`);
            break;
          }
        }
        if (!manifest) {
          problem(`$export ${statusPath} never finished`);
          continue;
        }
        for (const output of manifest.output as Array<{ type: string; url: string; count: number }>) {
          for (let tries = 0; tries < 10; tries++) {
            const slot = await pool!.pick(random);
            const generation = slot.generation;
            const url = slot.url + new URL(output.url).pathname;
            try {
              const response = await fetch(url, { headers: { authorization: `Bearer ${partnerToken}` } });
              const text = await response.text();
              count(response.status);
              if (response.status !== 200) {
                await assertMatchesContract('GET', url, response.status, response.headers, JSON.parse(text));
                problem(`export file ${output.type}: ${response.status} ${text.slice(0, 200)}`);
                break;
              }
              const lines = text.trimEnd().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; resourceType: string });
              if (lines.length !== output.count) problem(`export file ${output.type}: ${lines.length} lines, the manifest says ${output.count}`);
              if (new Set(lines.map((l) => l.id)).size !== lines.length) problem(`export file ${output.type}: a resource written twice`);
              if (lines.some((l) => l.resourceType !== output.type)) problem(`export file ${output.type}: a line of another type`);
              f.exports.resources += lines.length;
              break;
            } catch (error) {
              if (isConnectionFailure(error) && expectedFailure(slot, generation, true)) f.connectionFailures++;
              else {
                problem(`export file ${output.type} from instance ${slot.index}: ${(error as Error).message}`);
                break;
              }
            }
          }
        }
        f.exports.completed++;
      }
    })());
    const watcher = setInterval(() => {
      void db('bulk_export_jobs').where({ org_id: orgId }).whereNotNull('lease_owner').select('id', 'lease_owner').then((rows: Array<{ id: string; lease_owner: string }>) => {
        for (const r of rows) exportOwners.set(r.id, (exportOwners.get(r.id) ?? new Set()).add(r.lease_owner));
      }).catch(() => {});
    }, 200);

    // The churn: every KILL_EVERY_SECONDS, SIGKILL one instance (in turn) and start it again at
    // once; never two down at a time (a kill waits for the last victim to be listening again).
    let victim = 0;
    for (let next = started + KILL_EVERY_SECONDS * 1000; next < started + SECONDS * 1000; next += KILL_EVERY_SECONDS * 1000) {
      await sleep(next - Date.now());
      const slot = pool.slots[victim++ % INSTANCES]!;
      await pool.kill(slot);
      await pool.restart(slot);
    }
    await sleep(started + SECONDS * 1000 - Date.now());
    running = false;
    await Promise.all(loops);
    clearInterval(watcher);
    const loadMs = Date.now() - started;

    // Drain: every queue empties with all three instances up.
    const drainStarted = Date.now();
    const checksSettled = async () => Number((await db('eligibility_checks').where({ org_id: orgId }).where((q) => q.whereNotNull('lease_owner').orWhere('due_at', '<=', new Date(Date.now() + 86_400_000).toISOString())).count({ n: '*' }).first())?.n ?? 0) === 0;
    const exportsSettled = async () => Number((await db('bulk_export_jobs').where({ org_id: orgId }).whereIn('status', ['queued', 'running']).count({ n: '*' }).first())?.n ?? 0) === 0;
    for (;;) {
      if ((await settled(db, orgId)) && (await checksSettled()) && (await exportsSettled())) break;
      if (Date.now() - drainStarted > DRAIN_MS) {
        const checks = await db('eligibility_checks').where({ org_id: orgId }).where((q) => q.whereNotNull('lease_owner').orWhere('due_at', '<=', new Date(Date.now() + 86_400_000).toISOString())).select('coverage_id', 'due_at', 'attempts', 'lease_owner', 'lease_until', 'last_outcome').limit(10);
        throw new Error(`queued work not finished ${DRAIN_MS} ms after the load stopped:\n${await describeUnsettled(db, orgId)}\nchecks: ${JSON.stringify(checks)}\nexports: ${JSON.stringify(await db('bulk_export_jobs').where({ org_id: orgId }).whereIn('status', ['queued', 'running']).select('id', 'status', 'lease_owner', 'lease_until'))}`);
      }
      await sleep(250);
    }
    const drainMs = Date.now() - drainStarted;

    // 0 acknowledged writes lost, 0 applied twice: the HL7 messages.
    const patientOf = async (system: string, value: string) => {
      const id = await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system, value }).select('resource_id');
      return id;
    };
    const lastFamily = new Map<string, { family: string; versions: number }>();
    for (const m of acked) {
      const known = lastFamily.get(m.mrn);
      if (m.event === 'A01') lastFamily.set(m.mrn, { family: m.family, versions: 1 });
      else if (known && known.family !== m.family) lastFamily.set(m.mrn, { family: m.family, versions: known.versions + 1 });
    }
    const appliedIds = new Set((await db('hl7_applied_messages').where({ org_id: orgId }).select('control_id')).map((r: { control_id: string }) => r.control_id));
    for (const m of acked) {
      if (!appliedIds.has(m.controlId)) {
        f.lostWrites++;
        problem(`HL7 ${m.controlId} was AA'd but is not recorded as applied`);
      }
    }
    const controlRows = await db('hl7_applied_messages').where({ org_id: orgId }).groupBy('sending_application', 'control_id').havingRaw('count(*) > 1').select('control_id');
    for (const r of controlRows) {
      f.appliedTwice++;
      problem(`HL7 ${r.control_id} recorded as applied twice`);
    }
    for (const [mrn, expected] of lastFamily) {
      const ids = await patientOf(MRN_SYSTEM, mrn);
      if (ids.length !== 1) {
        if (ids.length === 0) f.lostWrites++;
        else f.appliedTwice++;
        problem(`resident ${mrn}: ${ids.length} Patients`);
        continue;
      }
      const row = await db('residents').where({ id: ids[0].resource_id }).first('version_id', 'family_name');
      const admittedEvents = Number((await db('webhook_events').where({ resident_id: ids[0].resource_id, event_type: 'resident.admitted' }).count({ n: '*' }).first())?.n ?? 0);
      if (Number(row?.version_id) !== expected.versions) {
        if (Number(row?.version_id) > expected.versions) f.appliedTwice++;
        else f.lostWrites++;
        problem(`resident ${mrn}: version ${row?.version_id}, expected ${expected.versions} (one per change acknowledged)`);
      }
      if (row && row.family_name !== undefined && row.family_name !== expected.family) problem(`resident ${mrn}: family ${row.family_name}, the last message acknowledged says ${expected.family}`);
      if (admittedEvents !== 1) {
        f.appliedTwice += admittedEvents > 1 ? 1 : 0;
        problem(`resident ${mrn}: ${admittedEvents} resident.admitted events`);
      }
    }
    // The Bundles.
    for (const x of bundled) {
      const ids = await patientOf(MRN, x.mrn);
      const cov = await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Coverage', value: x.coverageKey }).select('resource_id');
      if (ids.length !== 1 || cov.length !== 1) {
        if (ids.length === 0 || cov.length === 0) f.lostWrites++;
        else f.appliedTwice++;
        problem(`Bundle ${x.mrn}: ${ids.length} Patients, ${cov.length} Coverages`);
        continue;
      }
      const row = await db('residents').where({ id: ids[0].resource_id }).first('version_id');
      if (Number(row?.version_id) !== 1) {
        f.appliedTwice++;
        problem(`Bundle ${x.mrn}: the Patient is at version ${row?.version_id}; it was sent unchanged (resends included), so 1`);
      }
    }

    // Every event fanned out to every subscription, and delivered at least once.
    const events = await db('webhook_events').where({ org_id: orgId }).select('id');
    f.webhooks.events = events.length;
    const fanned = await db('webhook_deliveries').where({ org_id: orgId }).groupBy('event_id').select('event_id', db.raw('count(*) as n'));
    const fannedOf = new Map(fanned.map((r: { event_id: string; n: number | string }) => [r.event_id, Number(r.n)]));
    for (const e of events) {
      if (fannedOf.get(e.id) !== receivers.length) {
        f.webhooks.lost++;
        problem(`event ${e.id}: ${fannedOf.get(e.id) ?? 0} deliveries, ${receivers.length} subscriptions`);
      }
    }
    const accounting = await account(db, orgId, subscriptionIds.map((id, i) => ({ id, secret: receivers[i]!.secret, arrivals: () => receivers[i]!.arrivals })), { schedule: SCHEDULE, allowInterrupted: true, slackMs: 50 });
    // An instance that stalls past its lease (a loaded machine, a pause) while the receiver
    // answers, or before it records the answer, is not killed: it records its attempt's true
    // outcome over the `interrupted` the taker wrote (delivery-claims.ts), and the taker's
    // re-send is a counted duplicate; the delivery itself moves on only under the current
    // claim. Everything else is a problem. On such a delivery the record may show a success
    // before the last attempt, or (stalled mid-exchange) attempts overlapping or closer than the
    // schedule. A stall is known by the attempt that lasted longer than the lease, or by the
    // next attempt starting so long after it that its lease had run out in between (a claim
    // held at once by two workers would start both within the lease's room).
    const attemptsOf = new Map<string, typeof accounting.attemptRows>();
    for (const a of accounting.attemptRows) attemptsOf.set(a.delivery_id, [...(attemptsOf.get(a.delivery_id) ?? []), a]);
    const stalled = new Set<string>();
    for (const [id, tries] of attemptsOf) {
      const sorted = [...tries].sort((a, b) => a.attempt - b.attempt);
      if (sorted.some((a) => (a.duration_ms ?? 0) >= LEASE_MS)) stalled.add(id);
      for (let i = 1; i < sorted.length; i++) {
        if (Date.parse(sorted[i]!.started_at) - Date.parse(sorted[i - 1]!.started_at) >= LEASE_RAN_OUT_BETWEEN_MS && sorted[i - 1]!.error_class !== 'interrupted') stalled.add(id);
      }
    }
    const STALL_ARTEFACT = /an attempt before the last one succeeded already$|started -?\d+ ms before attempt \d+ ended$|came -?\d+ ms after attempt \d+ ended; at least \d+ ms were due$/;
    const afterStall = (p: string) => STALL_ARTEFACT.test(p) && [...stalled].some((id) => p.startsWith(`delivery ${id} `));
    f.webhooks.afterStall = new Set(accounting.problems.filter(afterStall).map((p) => p.split(' ')[1])).size;
    for (const p of accounting.problems.filter((p) => !afterStall(p)).slice(0, 50)) problem(`webhooks: ${p}`);
    for (const r of receivers) for (const refusal of r.refused.slice(0, 10)) problem(`receiver ${r.options.name} refused ${refusal}`);
    Object.assign(f.webhooks, {
      deliveries: accounting.deliveries, arrivals: accounting.arrivals, duplicates: accounting.duplicates, interrupted: accounting.errorClasses.interrupted ?? 0,
      failedOnPurpose: receivers.reduce((n, r) => n + r.failed, 0), lost: f.webhooks.lost + accounting.lost,
    });
    if (accounting.delivered !== accounting.deliveries) problem(`webhooks: ${accounting.delivered} of ${accounting.deliveries} deliveries delivered`);

    // Eligibility: every HL7 admission's Coverage asked about, with an answer on record.
    const checks = await db('eligibility_checks').where({ org_id: orgId }).select('coverage_id', 'last_outcome');
    f.eligibility.checks = checks.length;
    f.eligibility.exchanges = Number((await db('eligibility_exchanges').where({ org_id: orgId }).count({ n: '*' }).first())?.n ?? 0);
    const askedPerCoverage = new Map<string, number>();
    for (const r of double.received) askedPerCoverage.set(r.inquiry.trace, (askedPerCoverage.get(r.inquiry.trace) ?? 0) + 1);
    f.eligibility.askedTwice = [...askedPerCoverage.values()].filter((n) => n > 1).length;
    for (const r of double.received) if (r.problems.length > 0) problem(`a 270 the clearinghouse refused: ${r.problems.join('; ')}`);
    for (const [mrn] of [...lastFamily]) {
      const ids = await patientOf(MRN_SYSTEM, mrn);
      if (ids.length !== 1) continue;
      const coverageRow = await db('coverage').where({ resident_id: ids[0].resource_id }).first('id');
      const check = checks.find((c: { coverage_id: string }) => c.coverage_id === coverageRow?.id);
      if (!coverageRow || !check) problem(`resident ${mrn}: no Coverage or no eligibility check`);
      else if (check.last_outcome !== 'active') problem(`resident ${mrn}: eligibility check ended ${check.last_outcome}, the clearinghouse answered active`);
    }

    // Exports: each kicked off finished (completed, not failed), taken over or not.
    const jobs = await db('bulk_export_jobs').where({ org_id: orgId }).select('id', 'status', 'failure');
    for (const j of jobs) if (j.status !== 'completed') problem(`export ${j.id}: ${j.status} ${j.failure ?? ''}`);
    f.exports.takenOver = [...exportOwners.values()].filter((owners) => owners.size > 1).length;

    // The token limit: one limit across the instances, restarts included.
    if (f.token.issued > TOKEN_LIMIT) problem(`token limit ${TOKEN_LIMIT} per address: ${f.token.issued} tokens issued across the instances`);
    if (f.token.issued === 0 || f.token.throttled === 0) problem(`token limit: ${f.token.issued} issued, ${f.token.throttled} throttled; both were expected`);

    f.kills = pool.kills;
    f.restarts = pool.restarts;
    const startP50 = [...pool.startMs].sort((x, y) => x - y)[Math.floor(pool.startMs.length / 2)];
    const takenOver = f.exports.takenOver + f.webhooks.interrupted + f.webhooks.afterStall + f.eligibility.askedTwice;
    console.log(
      `      seed ${seed}: ${INSTANCES} instances, ${f.kills} SIGKILLs and restarts in ${Math.round(loadMs / 1000)} s (start p50 ${startP50} ms), drained in ${drainMs} ms; ` +
        `${f.requests} answers ${Object.entries(f.statuses).map(([s, n]) => `${s}×${n}`).join(' ')}, ${f.connectionFailures} connections cut by kills, ${f.unexpectedFailures} failures of live instances, ${f.responses5xx} undocumented 5xx\n` +
        `      HL7: ${f.hl7.acked} AA of ${f.hl7.sent} sent (${f.hl7.resent} resent, slowest ACK ${Math.max(0, ...ackMs)} ms); Bundles: ${f.bundles.ok} 200 of ${f.bundles.sent} sent (${f.bundles.resent} resent); partner reads ${f.reads}; ` +
        `lost writes ${f.lostWrites}, applied twice ${f.appliedTwice}\n` +
        `      webhooks: ${f.webhooks.events} events, ${f.webhooks.deliveries} deliveries, ${f.webhooks.arrivals} arrivals, ${f.webhooks.failedOnPurpose} failed on purpose, ${f.webhooks.interrupted} interrupted by kills, ${f.webhooks.afterStall} deliveries re-sent after a stalled (not killed) instance's lease ran out, ${f.webhooks.duplicates} duplicates, lost ${f.webhooks.lost}\n` +
        `      exports: ${f.exports.completed} completed (${f.exports.resources} resources), ${f.exports.takenOver} taken over; eligibility: ${f.eligibility.checks} checks, ${f.eligibility.exchanges} exchanges, ${f.eligibility.askedTwice} asked more than once (a kill or a timeout); ` +
        `tokens from one address: ${f.token.issued} issued (limit ${TOKEN_LIMIT}), ${f.token.throttled} throttled of ${f.token.attempts} (slowest answer ${Math.round(Math.max(0, ...tokenMs))} ms)`,
    );
    figures.churn = f;
    expect(problems, problems.slice(0, 40).join('\n')).to.deep.equal([]);
    expect(f.kills, 'SIGKILLs').to.equal(Math.ceil(SECONDS / KILL_EVERY_SECONDS) - 1);
    expect(f.hl7.acked, 'HL7 messages acknowledged').to.be.greaterThan(0);
    expect(f.bundles.ok, 'Bundles answered 200').to.be.greaterThan(0);
    expect(f.exports.completed, 'exports completed').to.be.greaterThan(0);
    expect(takenOver, 'work an instance died holding was taken over by another').to.be.greaterThan(0);
  });
});
