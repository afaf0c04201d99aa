// The feeds a facility runs, measured against the service in its own process (`npm start`'s
// bundle), events on (one subscription), on SQLite and PostgreSQL:
// - ADT messages/s over ONE MLLP connection, the way an interface engine sends in original
//   mode: each A01 (a new resident: Patient, version, audit, control id, resident.admitted)
//   sent after the previous ACK. Baseline, same run: the same number of one-resident
//   transactions written with plain INSERTs (the resident row and its event row), one
//   transaction each, into a fresh database of the same kind: hand-written SQL, no matching,
//   versioning, audit or de-duplication.
// - 271 subscriber loops/s: one interchange, each loop matched by TRN02 to a Coverage and
//   cancelling it (EB01 6) with coverage.updated, POSTed to the x12 endpoint. Baseline, same
//   run: plain UPDATEs of the same Coverages' status in one transaction.
//   Also: the same ADT stream with up to 64 messages in flight on that connection.
// - ORU^R01 messages/s (one OBR, 10 OBX each, for residents the ADT stream admitted) over one
//   MLLP connection, each after the previous ACK, with what they were answered (AR until the
//   listener takes results: then the figure is the refusal path, not an apply). Baseline,
//   same run: per message one transaction of 10 plain observation INSERTs.
//   BENCH_FEEDS_ADT=3000 BENCH_FEEDS_ORU=3000 BENCH_FEEDS_LOOPS=3000 BENCH_ONLY=feeds npm run bench
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { isPostgres, openDatabase, rawRows } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { PARTNER_SCOPES } from '../../server/src/tenancy/scopes.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import { adtMessage } from '../../test/support/adt-messages.js';
import { labObservations, oruMessage } from '../../test/support/hl7-clinical-messages.js';
import { mllpClient, frame } from '../../test/support/mllp.js';
import { interchange271 } from '../../test/support/x12.js';
import { accessToken, startServiceProcess } from './service-process.js';
import { freePort } from './ports.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';

const DEFAULT_ADT = 3000;
const DEFAULT_LOOPS = 3000;
/** 3,000 since 2026-11-29 (1,000 before): about 10 s a database, so one slow second of the machine moves the figure less. */
const DEFAULT_ORU = 3000;
/** Messages per logged stretch of the ORU^R01 stream. */
const ORU_STRETCH = 500;
/** OBX segments per ORU^R01. */
const ORU_OBSERVATIONS = 10;
const WINDOW = 64;
/**
 * BENCH_FEEDS_WARMUP: ADT messages sent before the one-at-a-time measurement. An interface
 * engine's connection lives for days; the first messages after a start measure V8 still
 * optimizing the path: on PostgreSQL the service's CPU per message fell from 3.5 to 1.7 ms
 * over the first 2,500 messages, and V8 was still compiling until then (--trace-opt,
 * 2026-11-26). 100 before that day.
 */
const DEFAULT_WARMUP = 2000;

export interface FeedsRun {
  database: string;
  adt: { messages: number; /** Messages sent before the measurement (absent before 2026-11-26: 100). */ warmup?: number; /** The message store (issue 42) after the one-at-a-time stream: rows and their bytes on disk, table and indexes (absent before it existed). */ store?: { messages: number; bytes: number; bytesPerMessage: number; contentBytesPerMessage: number }; seconds: number; messagesPerSecond: number; windowed: { window: number; seconds: number; messagesPerSecond: number }; events: number; baselinePerSecond: number };
  x12: { loops: number; seconds: number; loopsPerSecond: number; updated: number; events: number; baselinePerSecond: number };
  /** Absent in figures stored before it was measured. */
  oru?: { messages: number; observationsEach: number; seconds: number; messagesPerSecond: number; answered: Record<string, number>; observationsWritten: number; baselinePerSecond: number };
}

export interface FeedsThroughputResult {
  runs: FeedsRun[];
  skipped: string[];
}

async function tenant(db: Knex) {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Feeds benchmark');
  const facility = await createFacility(db, org.id, 'Feeds benchmark facility');
  return { org, facility };
}

/** One-resident transactions with plain INSERTs: the resident row and its event row. */
async function plainAdmissions(db: Knex, orgId: string, facilityId: string, n: number): Promise<number> {
  const now = new Date().toISOString();
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    await db.transaction(async (trx) => {
      const id = randomUUID();
      await trx('residents').insert({ id, org_id: orgId, facility_id: facilityId, identifiers: JSON.stringify([{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `BASE-${i}` }]), family_name: 'Okafor', given_names: '["Adaeze"]', gender: 'female', birth_date: '1941-03-17', active: true, version_id: 1, last_updated: now, created_at: now });
      await trx('webhook_events').insert({ id: randomUUID(), org_id: orgId, facility_id: facilityId, resident_id: id, event_type: 'resident.admitted', occurred_at: now, created_at: now });
    });
  }
  return (performance.now() - started) / 1000;
}

/** Per message, one transaction of plain observation INSERTs for one resident. */
async function plainObservations(db: Knex, orgId: string, facilityId: string, messages: number, each: number): Promise<number> {
  const now = new Date().toISOString();
  const residentId = randomUUID();
  await db('residents').insert({ id: residentId, org_id: orgId, facility_id: facilityId, identifiers: JSON.stringify([{ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'BASE-ORU' }]), family_name: 'Okafor', given_names: '["Adaeze"]', gender: 'female', birth_date: '1941-03-17', active: true, version_id: 1, last_updated: now, created_at: now });
  const observations = labObservations(each);
  const started = performance.now();
  for (let i = 0; i < messages; i++) {
    await db.transaction(async (trx) => {
      await trx('observations').insert(
        observations.map((o) => ({ id: randomUUID(), org_id: orgId, facility_id: facilityId, resident_id: residentId, status: 'final', code_system: 'http://loinc.org', code: o.code, display: `Result ${o.code}`, effective_at: now, value_string: o.value, value_quantity: JSON.stringify({ value: Number(o.value), unit: o.units }), version_id: 1, last_updated: now })),
      );
    });
  }
  return (performance.now() - started) / 1000;
}

/** The message store's size: its rows, and their bytes on disk (table and indexes; SQLite by dbstat pages, PostgreSQL by its partitions' relation sizes). */
async function storeSize(db: Knex): Promise<{ messages: number; bytes: number; bytesPerMessage: number; contentBytesPerMessage: number }> {
  const messages = Number((await db('inbound_messages').count({ n: '*' }).first())!.n);
  const content = Number((await db('inbound_messages').sum({ n: db.raw('length(content_encrypted)') }).first())!.n ?? 0);
  let bytes: number;
  // PostgreSQL: the table is partitioned (migration 039): its rows are in its partitions, the parent holds none.
  if (isPostgres(db)) bytes = Number(rawRows<{ bytes: string }>(await db.raw(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c WHERE c.oid = 'inbound_messages'::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'inbound_messages'::regclass)`))[0]!.bytes);
  else bytes = Number(rawRows<{ bytes: number }>(await db.raw(`SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'inbound_messages%' OR name LIKE 'sqlite_autoindex_inbound_messages%'`))[0]!.bytes);
  return { messages, bytes, bytesPerMessage: bytes / Math.max(messages, 1), contentBytesPerMessage: content / Math.max(messages, 1) };
}

async function seedCoverages(db: Knex, orgId: string, facilityId: string, n: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < n; start += 250) {
    const changes = [];
    for (let i = start; i < Math.min(n, start + 250); i++) {
      const url = `urn:uuid:${randomUUID()}`;
      changes.push({ resource: { resourceType: 'Patient' as const, identifier: [{ system: 'https://ehr.example/mrn', value: `${prefix}-${i}` }], name: [{ family: 'Okafor' }], gender: 'female', birthDate: '1941-03-17' }, fullUrl: url, match: { identifier: { system: 'https://ehr.example/mrn', value: `${prefix}-${i}` } }, at: `p${i}` });
      changes.push({ resource: { resourceType: 'Coverage' as const, identifier: [{ system: 'https://ehr.example/coverage', value: `${prefix}-C-${i}` }], status: 'active', beneficiary: { reference: url }, payor: [{ display: 'Medicare Part A' }], subscriberId: `S${i}`, period: { start: '2024-01-01' }, order: 1 }, at: `c${i}` });
    }
    const result = await applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'seed', emitEvents: false, changes });
    for (const o of result.outcomes) if (o.outcome !== 'rejected' && o.resourceType === 'Coverage') ids.push(o.id);
  }
  return ids;
}

async function measureOn(label: string, url: string, baselineUrl: string, settings: BenchSettings): Promise<FeedsRun> {
  const adtCount = Number(process.env.BENCH_FEEDS_ADT ?? DEFAULT_ADT);
  const loopCount = Number(process.env.BENCH_FEEDS_LOOPS ?? DEFAULT_LOOPS);
  const db = openDatabase(url);
  let service;
  try {
    const { org, facility } = await tenant(db);
    await setFacilityHl7Code(db, facility.id, 'BENCH');
    const source = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['ingest.write'], name: 'bench clearinghouse', kind: 'ingest' });
    const partner = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: [...PARTNER_SCOPES], name: 'bench partner' });
    const coverageIds = await seedCoverages(db, org.id, facility.id, loopCount, 'X');
    const mllpPort = await freePort();
    service = await startServiceProcess({ databaseUrl: url, env: { MLLP_PORT: String(mllpPort), WEBHOOK_WORKER: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    const partnerToken = await accessToken(service.url, partner);
    const subscribed = await fetch(`${service.url}/api/v1/ofctx/${org.id}/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${partnerToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted', 'coverage.updated'] }) });
    if (subscribed.status !== 201) throw new Error(`subscription failed: ${subscribed.status}`);

    // ADT over one connection, each message after the previous ACK.
    const client = await mllpClient(mllpPort);
    const send = async (i: number) => {
      client.write(frame(adtMessage({ event: 'A01', controlId: `B-${i}`, mrn: `B-${i}`, facility: 'BENCH' })));
      const [ack] = await client.acks(1);
      const code = ack!.getSegment('MSA')?.getField(1)?.toString();
      if (code !== 'AA') throw new Error(`ADT ${i} answered ${ack!.toString()}`);
    };
    const warmup = Number(process.env.BENCH_FEEDS_WARMUP ?? DEFAULT_WARMUP);
    for (let i = 0; i < warmup; i++) await send(1_000_000 + i);
    settings.log(`  ${label}: ${adtCount} ADT^A01 over one MLLP connection, each after the previous ACK`);
    const adtStarted = performance.now();
    for (let i = 0; i < adtCount; i++) await send(i);
    const adtSeconds = (performance.now() - adtStarted) / 1000;
    const store = await storeSize(db);
    // The same over the same connection with up to WINDOW messages unacknowledged (the
    // listener applies what queued up together, each message still on its own).
    settings.log(`  ${label}: ${adtCount} ADT^A01 over one MLLP connection, ${WINDOW} in flight`);
    const windowStarted = performance.now();
    let sent = 0;
    let acked = 0;
    while (acked < adtCount) {
      const burst: Buffer[] = [];
      while (sent < adtCount && sent - acked < WINDOW) burst.push(frame(adtMessage({ event: 'A01', controlId: `W-${sent}`, mrn: `W-${sent++}`, facility: 'BENCH' })));
      if (burst.length) client.write(Buffer.concat(burst));
      const acks = await client.acks(Math.min(WINDOW / 2, sent - acked));
      for (const ack of acks) if (ack.getSegment('MSA')?.getField(1)?.toString() !== 'AA') throw new Error(`ADT answered ${ack.toString()}`);
      acked += acks.length;
    }
    const windowSeconds = (performance.now() - windowStarted) / 1000;

    // ORU^R01 with 10 OBX over the same connection, each after the previous ACK.
    const oruCount = Number(process.env.BENCH_FEEDS_ORU ?? DEFAULT_ORU);
    const observationsBefore = Number((await db('observations').where({ org_id: org.id }).count({ n: '*' }).first())!.n);
    const answered: Record<string, number> = {};
    const sendOru = async (i: number, count: boolean) => {
      client.write(frame(oruMessage({ controlId: `O-${i}`, mrn: `B-${i % adtCount}`, facility: 'BENCH', groups: [labObservations(ORU_OBSERVATIONS)] })));
      const [ack] = await client.acks(1);
      const code = ack!.getSegment('MSA')?.getField(1)?.toString() ?? 'none';
      if (count) answered[code] = (answered[code] ?? 0) + 1;
    };
    for (let i = 0; i < 100; i++) await sendOru(1_000_000 + i, false); // warm-up
    settings.log(`  ${label}: ${oruCount} ORU^R01 (${ORU_OBSERVATIONS} OBX each) over one MLLP connection, each after the previous ACK`);
    const oruStarted = performance.now();
    // The rate of each stretch, logged: whether it holds level, or the machine's moment moved it.
    let stretchStarted = oruStarted;
    for (let i = 0; i < oruCount; i++) {
      await sendOru(i, true);
      if ((i + 1) % ORU_STRETCH === 0) {
        const now = performance.now();
        settings.log(`    ORU^R01 ${i + 2 - ORU_STRETCH}-${i + 1}: ${((ORU_STRETCH * 1000) / (now - stretchStarted)).toFixed(0)}/s`);
        stretchStarted = now;
      }
    }
    const oruSeconds = (performance.now() - oruStarted) / 1000;
    const observationsWritten = Number((await db('observations').where({ org_id: org.id }).count({ n: '*' }).first())!.n) - observationsBefore;
    client.close();
    const adtEvents = Number((await db('webhook_events').where({ org_id: org.id, event_type: 'resident.admitted' }).count({ n: '*' }).first())!.n);

    // One 271 with a loop per Coverage.
    const token = await accessToken(service.url, source);
    const post = (body: string) => fetch(`${service!.url}/api/v1/ingest/${org.id}/${facility.id}/x12`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/edi-x12' }, body });
    await (await post(interchange271([{ trace: 'warm-up', memberId: 'W' }]))).arrayBuffer();
    const interchange = interchange271(coverageIds.map((id, i) => ({ trace: id, memberId: `M${i}`, eligibility: ['6'] })));
    settings.log(`  ${label}: one 271 with ${coverageIds.length} subscriber loops`);
    const x12Started = performance.now();
    const answer = await post(interchange);
    const body = (await answer.json()) as { data: { matched: number; updated: number; events: number } };
    const x12Seconds = (performance.now() - x12Started) / 1000;
    if (answer.status !== 200 || body.data.updated !== coverageIds.length) throw new Error(`271 answered ${answer.status}: ${JSON.stringify(body).slice(0, 500)}`);

    // Baselines, same run.
    const baselineDb = openDatabase(baselineUrl);
    let admissionsSeconds: number;
    let updatesSeconds: number;
    let observationsSeconds: number;
    try {
      const base = await tenant(baselineDb);
      admissionsSeconds = await plainAdmissions(baselineDb, base.org.id, base.facility.id, adtCount);
      const ids = await seedCoverages(baselineDb, base.org.id, base.facility.id, loopCount, 'Y');
      const started = performance.now();
      await baselineDb.transaction(async (trx) => {
        for (const id of ids) await trx('coverage').where({ id }).update({ status: 'cancelled', version_id: 2, last_updated: new Date().toISOString() });
      });
      updatesSeconds = (performance.now() - started) / 1000;
      observationsSeconds = await plainObservations(baselineDb, base.org.id, base.facility.id, oruCount, ORU_OBSERVATIONS);
    } finally {
      await baselineDb.destroy();
    }
    const run: FeedsRun = {
      database: label,
      adt: { messages: adtCount, warmup, store, seconds: adtSeconds, messagesPerSecond: adtCount / adtSeconds, windowed: { window: WINDOW, seconds: windowSeconds, messagesPerSecond: adtCount / windowSeconds }, events: adtEvents, baselinePerSecond: adtCount / admissionsSeconds },
      x12: { loops: coverageIds.length, seconds: x12Seconds, loopsPerSecond: coverageIds.length / x12Seconds, updated: body.data.updated, events: body.data.events, baselinePerSecond: coverageIds.length / updatesSeconds },
      oru: { messages: oruCount, observationsEach: ORU_OBSERVATIONS, seconds: oruSeconds, messagesPerSecond: oruCount / oruSeconds, answered, observationsWritten, baselinePerSecond: oruCount / observationsSeconds },
    };
    settings.log(`    message store: ${store.messages} messages, ${store.bytesPerMessage.toFixed(0)} bytes each on disk (table and indexes), ${store.contentBytesPerMessage.toFixed(0)} of them the encrypted content`);
    settings.log(`    ADT ${run.adt.messagesPerSecond.toFixed(0)} messages/s one at a time, ${run.adt.windowed.messagesPerSecond.toFixed(0)}/s with ${WINDOW} in flight (plain one-resident transactions ${run.adt.baselinePerSecond.toFixed(0)}/s); 271 ${run.x12.loopsPerSecond.toFixed(0)} loops/s (plain UPDATEs ${run.x12.baselinePerSecond.toFixed(0)}/s); ORU^R01 ${run.oru!.messagesPerSecond.toFixed(0)} messages/s one at a time, answered ${JSON.stringify(answered)}, ${observationsWritten} observations written (plain ${ORU_OBSERVATIONS}-observation transactions ${run.oru!.baselinePerSecond.toFixed(0)}/s)`);
    return run;
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function feedsThroughput(settings: BenchSettings): Promise<FeedsThroughputResult> {
  const runs: FeedsRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-feeds-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'feeds.db')}`, `sqlite:${join(dir, 'baseline.db')}`, settings));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const run = await onScratchPostgres(settings, 2, skipped, ([service, baseline]) => measureOn('PostgreSQL', service!, baseline!, settings));
  if (run) runs.push(run);
  return { runs, skipped };
}
