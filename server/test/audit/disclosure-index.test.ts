// The accounting of disclosures behind the audit trail (migration 028): each request's audit
// row names the residents it disclosed, a trigger queues it, and the index catches up in
// batches. The report is the same before, during and after the catch-up, whoever indexes,
// however often; a rollback of 028 keeps every disclosure, and rows written before 028 are
// still reported.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { isPostgres, rawRows } from '../../src/db/database.js';
import { disclosesAnyone, disclosureTextKey, monthEndOf } from '../../src/db/disclosure-text-key.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { partitionName, periodStart } from '../../src/db/history-partitions.js';
import { AuditTrail, type AuditEntry } from '../../src/audit/audit-trail.js';
import { decodeDisclosures, disclosuresOfResidentIn, encodeDisclosures, type Disclosure } from '../../src/db/disclosure-encoding.js';
import { DisclosureIndexer, indexAllQueuedDisclosures, indexQueuedDisclosures, POSTGRES_BATCH } from '../../src/audit/disclosure-index.js';
import { disclosuresOfResident, type DisclosureRecord } from '../../src/audit/disclosures.js';
import { TimedBatchSize } from '../../src/db/timed-batch-size.js';
import * as disclosureIndex from '../../src/db/migrations/028_disclosure_index.js';
import * as disclosureGroups from '../../src/db/migrations/029_disclosure_groups.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

describe('the disclosure index behind the audit trail', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let trail: AuditTrail;
  const orgId = randomUUID();
  const otherOrgId = randomUUID();
  const residents = Array.from({ length: 6 }, () => randomUUID());
  let requestNumber = 0;

  before(() => {
    db = knex();
    trail = new AuditTrail(db);
  });

  const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())!.n);
  /**
   * The audit seqs indexed for a resident: on PostgreSQL the audit rows of each (month, text) of
   * its index rows no longer queued (migration 050); on SQLite its index rows' groups' seqs (a row's own, before
   * migration 029).
   */
  const indexedSeqsOf = async (residentId: string, org = orgId): Promise<number[]> => {
    if (isPostgres(db)) {
      const rows = rawRows<{ seq: string }>(
        await db.raw(
          `SELECT DISTINCT a.seq FROM audit_disclosure_index i JOIN audit_events a ON a.org_id = i.org_id AND ${disclosureTextKey('a')} = i.text_key
             AND ${disclosesAnyone('a')} AND a.at >= i.month AND a.at < ${monthEndOf('i.month')}
           WHERE i.org_id = ? AND i.resident_id = ? AND NOT EXISTS (SELECT 1 FROM audit_disclosure_backlog b WHERE b.seq = a.seq)`,
          [org, residentId],
        ),
      );
      return rows.map((r) => Number(r.seq)).sort((x, y) => x - y);
    }
    const rows = (await db('audit_disclosure_index as i')
      .leftJoin('audit_disclosure_groups as g', 'g.first_seq', 'i.first_seq')
      .where({ 'i.org_id': org, 'i.resident_id': residentId })
      .select('i.seqs as own', 'g.seqs as grouped')) as Array<{ own: string; grouped: string | null }>;
    return rows.flatMap((r) => JSON.parse(r.grouped ?? r.own) as Array<number | string>).map(Number).sort((x, y) => x - y);
  };

  /** A list answer that returned two records of each resident given. */
  function listEntry(of: string[], options: { org?: string; purpose?: string; type?: string } = {}): AuditEntry {
    const type = options.type ?? 'Coverage';
    const disclosures: Disclosure[] = of.map((residentId) => ({ residentId, resourceType: type, resourceIds: [randomUUID(), randomUUID()] }));
    return {
      requestId: `request-${++requestNumber}`,
      clientId: 'client-a',
      orgId: options.org ?? orgId,
      facilityId: null,
      operation: 'listCoverage',
      status: 200,
      resourceIds: disclosures.flatMap((d) => d.resourceIds),
      purpose: options.purpose ?? 'HPAYMT',
      disclosures,
    };
  }

  const reportOf = (residentId: string, bounds: { from?: string; to?: string } = {}) => disclosuresOfResident(db, { orgId, residentId, ...bounds });

  it('encodes which record belongs to which resident by position in resource_ids, and decodes it back', () => {
    const disclosures: Disclosure[] = [
      { residentId: 'r1', resourceType: 'Observation', resourceIds: ['o1', 'o3'] },
      { residentId: 'r2', resourceType: 'Observation', resourceIds: ['o2'] },
      { residentId: 'r1', resourceType: 'Patient', resourceIds: ['r1'] },
      // Not among resource_ids (never expected): written as itself.
      { residentId: 'r3', resourceType: 'Patient', resourceIds: ['elsewhere'] },
    ];
    const resourceIds = ['o1', 'o2', 'o3', 'r1'];
    const text = encodeDisclosures(disclosures, resourceIds)!;
    expect(JSON.parse(text)).to.deep.equal({ Observation: { r1: [0, 2], r2: [1] }, Patient: { r1: [3], r3: ['elsewhere'] } });
    expect(decodeDisclosures(text, resourceIds)).to.deep.equal([disclosures[0], disclosures[1], disclosures[2], disclosures[3]]);
    expect(encodeDisclosures([], resourceIds)).to.equal(null);
    // Again, with ids already found plain (encodeDisclosures remembers them): the same text.
    expect(encodeDisclosures(disclosures, resourceIds)).to.equal(text);
    // Positions given by the caller are used when they hold, looked up when not; a resident
    // given twice for one type is one key.
    const positioned: Disclosure[] = [
      { residentId: 'r1', resourceType: 'Observation', resourceIds: ['o1'], positions: [0] },
      { residentId: 'r2', resourceType: 'Observation', resourceIds: ['o2'], positions: [7] },
      { residentId: 'r1', resourceType: 'Observation', resourceIds: ['o3'], positions: [2] },
    ];
    expect(JSON.parse(encodeDisclosures(positioned, resourceIds)!)).to.deep.equal({ Observation: { r1: [0, 2], r2: [1] } });
    // An id that needs escaping is escaped every time (never remembered as plain).
    for (let i = 0; i < 2; i++) {
      expect(JSON.parse(encodeDisclosures([{ residentId: 'a"b', resourceType: 'Patient', resourceIds: ['x\\y'] }], [])!)).to.deep.equal({ Patient: { 'a"b': ['x\\y'] } });
    }
    // The report's reader finds one resident's part by its key, as the whole decode does.
    for (const resident of ['r1', 'r2', 'r3', 'r4']) {
      expect(disclosuresOfResidentIn(text, JSON.stringify(resourceIds), resident)).to.deep.equal(decodeDisclosures(text, resourceIds).filter((d) => d.residentId === resident));
    }
  });

  it('reports a request before it is indexed, and the same after; the backlog empties into a text (a group on SQLite) per text and an index row per resident it names', async () => {
    const first = listEntry(residents.slice(0, 4));
    const second = listEntry([residents[0]!, residents[4]!], { purpose: 'TREAT' });
    await trail.record(first);
    await trail.record(second);
    // Another organization's answer about the same resident ids is not this organization's.
    await trail.record(listEntry([residents[0]!], { org: otherOrgId }));
    // An answer without disclosures (a refusal, a list of nothing) queues nothing.
    await trail.record({ ...listEntry([]), disclosures: null, status: 403, resourceIds: null });
    expect(await count('audit_disclosure_backlog')).to.equal(3);

    const queued = await reportOf(residents[0]!);
    expect(queued.map((r) => [r.purpose, r.operation, r.resource_types, r.resource_ids])).to.deep.equal([
      ['HPAYMT', 'listCoverage', ['Coverage'], first.disclosures![0]!.resourceIds],
      ['TREAT', 'listCoverage', ['Coverage'], second.disclosures![0]!.resourceIds],
    ]);
    expect(await reportOf(residents[5]!)).to.deep.equal([]);
    const before = await Promise.all(residents.map((r) => reportOf(r)));

    expect(await indexAllQueuedDisclosures(db)).to.equal(3);
    expect(await count('audit_disclosure_backlog')).to.equal(0);
    // One batch, three texts: residents 0-3, then 0 and 4, of this organization; resident 0 of the other.
    expect(await count(isPostgres(db) ? 'audit_disclosure_texts' : 'audit_disclosure_groups')).to.equal(3);
    expect(await count('audit_disclosure_index')).to.equal(4 + 2 + 1);
    const seqs = (await db('audit_events').whereIn('request_id', [first.requestId, second.requestId]).orderBy('seq').pluck('seq')).map(Number);
    expect(await indexedSeqsOf(residents[0]!)).to.deep.equal(seqs);
    expect(await indexedSeqsOf(residents[4]!)).to.deep.equal([seqs[1]]);
    if (isPostgres(db)) {
      // A row per text of the month (migration 045), naming its audit rows by (month, text key).
      const rows = await db('audit_disclosure_index').where({ org_id: orgId, resident_id: residents[0] });
      const month = new Date(periodStart(Date.now(), 'month')).toISOString();
      expect(rows.map((r: { month: string }) => r.month)).to.deep.equal([month, month]);
      expect(new Set(rows.map((r: { text_key: string }) => r.text_key)).size).to.equal(2);
    } else {
      const rows = await db('audit_disclosure_index').where({ org_id: orgId, resident_id: residents[0] }).orderBy('first_seq');
      expect(rows.map((r: { first_seq: number | string; last_seq: number | string; seqs: string }) => [Number(r.first_seq), Number(r.last_seq), r.seqs])).to.deep.equal([[seqs[0], seqs[0], '[]'], [seqs[1], seqs[1], '[]']]);
    }
    expect(await Promise.all(residents.map((r) => reportOf(r)))).to.deep.equal(before);
    // Nothing left: another catch-up adds nothing.
    expect(await indexAllQueuedDisclosures(db)).to.equal(0);
    expect(await count('audit_disclosure_index')).to.equal(7);
  });

  it('reports a resident disclosed twice by one answer (its records and itself) once, with both types', async () => {
    const [resident] = [randomUUID()];
    const observations = [randomUUID(), randomUUID()];
    const entry: AuditEntry = {
      ...listEntry([]),
      operation: 'searchObservationR4',
      resourceIds: [...observations, resident!],
      disclosures: [
        { residentId: resident!, resourceType: 'Observation', resourceIds: observations },
        { residentId: resident!, resourceType: 'Patient', resourceIds: [resident!] },
      ],
    };
    await trail.record(entry);
    const queued = await reportOf(resident!);
    await indexAllQueuedDisclosures(db);
    const indexed = await reportOf(resident!);
    expect(indexed).to.deep.equal(queued);
    expect(indexed.map((r) => [r.operation, r.resource_types, r.resource_ids])).to.deep.equal([['searchObservationR4', ['Observation', 'Patient'], [...observations, resident]]]);
    expect(await db('audit_disclosure_index').where({ resident_id: resident })).to.have.length(1);
    expect(await indexedSeqsOf(resident!)).to.have.length(1);
  });

  it('indexes a page polled again and again (the same disclosures, request after request) with the other answers of its batch', async () => {
    const polled = listEntry([residents[2]!, residents[3]!]);
    const repeats = [0, 1, 2].map((i) => ({ ...polled, requestId: `${polled.requestId}-poll-${i}` }));
    const other = listEntry([residents[3]!]);
    for (const entry of [...repeats, other]) await trail.record(entry);
    const texts = await db('audit_events').whereIn('request_id', [...repeats, other].map((e) => e.requestId)).orderBy('seq').select('seq', 'disclosures');
    expect(new Set(texts.map((t: { disclosures: string }) => t.disclosures)).size).to.equal(2);
    const queued = await reportOf(residents[3]!);
    await indexAllQueuedDisclosures(db);
    const seqs = texts.map((t: { seq: number | string }) => Number(t.seq));
    if (isPostgres(db)) {
      // The polled text is one row of its month, whichever residents it names (migration 050).
      const key = rawRows<{ key: string }>(await db.raw(`SELECT ${disclosureTextKey('a')} AS key FROM audit_events a WHERE a.seq = ?`, [seqs[0]!]))[0]!.key;
      expect(Number((await db('audit_disclosure_texts').where({ org_id: orgId, text_key: key }).count({ n: '*' }).first())!.n)).to.equal(1);
    } else {
      // The polled text's requests are listed once, in its group, whichever residents it names.
      const group = await db('audit_disclosure_groups').where({ first_seq: seqs[0] }).first();
      expect({ seqs: (JSON.parse(group.seqs) as number[]).map(Number).sort((x, y) => x - y), last: Number(group.last_seq) }).to.deep.equal({ seqs: seqs.slice(0, 3), last: seqs[2] });
    }
    // (Both residents were disclosed by earlier answers too.)
    expect((await indexedSeqsOf(residents[3]!)).filter((seq) => seq >= seqs[0]!)).to.deep.equal(seqs);
    expect((await indexedSeqsOf(residents[2]!)).filter((seq) => seq >= seqs[0]!)).to.deep.equal(seqs.slice(0, 3));
    expect(await reportOf(residents[3]!)).to.deep.equal(queued);
  });

  it('bounds the report by --from and --to, indexed and queued rows alike, oldest first', async () => {
    const resident = randomUUID();
    const entries = [listEntry([resident]), listEntry([resident]), listEntry([resident])];
    const instants: string[] = [];
    for (const entry of entries) {
      await trail.record(entry);
      instants.push((await db('audit_events').where({ request_id: entry.requestId }).first('at'))!.at as string);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // The first two indexed, the last still queued.
    await indexQueuedDisclosures(db, 1_000);
    await trail.record(listEntry([resident]));
    const all = await reportOf(resident);
    expect(all).to.have.length(4);
    expect(all.map((r) => r.at)).to.deep.equal([...all.map((r) => r.at)].sort());
    const middle = await reportOf(resident, { from: instants[1], to: instants[2] });
    expect(middle.map((r) => r.resource_ids)).to.deep.equal([entries[1]!.disclosures![0]!.resourceIds]);
    const fromSecond: DisclosureRecord[] = await reportOf(resident, { from: instants[1] });
    expect(fromSecond).to.have.length(3);
  });

  it('two indexers at once index every queued row exactly once', async () => {
    await indexAllQueuedDisclosures(db);
    const seqsOf = indexedSeqsOf;
    const before = await seqsOf(residents[1]!);
    // 300 answers of texts not yet indexed (each names a resident of its own too).
    const disclosed = Array.from({ length: 300 }, () => listEntry([residents[1]!, randomUUID()]));
    await Promise.all(disclosed.map((entry) => trail.record(entry)));
    const [a, b] = await Promise.all([indexAllQueuedDisclosures(db, { limit: 16 }), indexAllQueuedDisclosures(db, { limit: 16 })]);
    expect(a + b).to.equal(300);
    expect(await count('audit_disclosure_backlog')).to.equal(0);
    const seqs = (await db('audit_events').whereIn('request_id', disclosed.map((e) => e.requestId)).orderBy('seq').pluck('seq')).map(Number);
    expect(await seqsOf(residents[1]!)).to.deep.equal([...before, ...seqs]);
    for (const entry of disclosed) {
      const own = entry.disclosures![1]!.residentId;
      expect(await seqsOf(own)).to.have.length(1);
      expect(await db('audit_disclosure_index').where({ org_id: orgId, resident_id: own })).to.have.length(1);
    }
  });

  it('takes batches of the size a timed batch size gives, and tells it how long each took', async () => {
    for (let i = 0; i < 100; i++) await trail.record(listEntry([randomUUID()]));
    // Any batch is far under a minute: each full one doubles the next, up to the ceiling.
    const size = new TimedBatchSize({ targetMs: 60_000, min: 8, max: 32, initial: 8 });
    const taken: number[] = [];
    const indexed = await indexAllQueuedDisclosures(db, { size, pause: async () => void taken.push(size.current) });
    expect(indexed).to.equal(100);
    // Batches of 8, 16, 32, 32 and the last 12: after each full one, the next one's size.
    expect(taken).to.deep.equal([16, 32, 32, 32]);
    expect(size.current).to.equal(32);
    expect(await count('audit_disclosure_backlog')).to.equal(0);
  });

  it('times a batch from its first statement, not from the wait for SQLite\'s connection before it', async function () {
    if (isPostgres(db)) this.skip(); // a pool of connections: nothing to wait for
    for (let i = 0; i < 100; i++) await trail.record(listEntry([residents[4]!]));
    const size = new TimedBatchSize({ targetMs: 100, min: 4, max: 64, initial: 8 });
    const taken: number[] = [];
    // A request's transaction holds SQLite's one connection for 300 ms as the catch-up starts.
    let release!: () => void;
    const held = db.transaction(async (trx) => {
      await trx.raw('select 1');
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const indexing = indexAllQueuedDisclosures(db, { size, pause: async () => void taken.push(size.current) });
    setTimeout(() => release(), 300);
    await held;
    expect(await indexing).to.equal(100);
    // Had the wait counted, the first batch (300 ms against 100) would have halved the next.
    expect(taken[0]).to.equal(16);
  });

  /** An audit row of `resident` written in `trx` (its trigger queues it there): a request whose commit is late. */
  const auditRowIn = (trx: Knex | Knex.Transaction, resident: string) =>
    trx('audit_events').insert({
      at: new Date().toISOString(),
      request_id: `late-${++requestNumber}`,
      client_id: 'client-a',
      org_id: orgId,
      facility_id: null,
      operation: 'listCoverage',
      status: 200,
      resource_ids: JSON.stringify([resident]),
      result_count: 1,
      purpose: 'HPAYMT',
      disclosures: JSON.stringify({ Patient: { [resident]: [0] } }),
    });

  /** An audit row of a new resident, queued in a transaction left open until `commit()`: a request whose commit is late. */
  async function lateAuditRow(): Promise<{ resident: string; commit: () => Promise<void> }> {
    const resident = randomUUID();
    let written!: () => void;
    let release!: () => void;
    const isWritten = new Promise<void>((resolve) => (written = resolve));
    const open = db.transaction(async (trx) => {
      await auditRowIn(trx, resident);
      written();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isWritten;
    return { resident, commit: async () => (release(), await open) };
  }

  it('starts each batch where the previous one started, leaving a row committed behind a whole batch to a run from the start (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip(); // SQLite commits one writer at a time: no row commits behind a later one
    await indexAllQueuedDisclosures(db);
    const resume = { seq: 0 };
    const late = await lateAuditRow();
    try {
      for (let i = 0; i < 40; i++) await trail.record(listEntry([residents[5]!]));
      expect(await indexAllQueuedDisclosures(db, { limit: 16, resume })).to.equal(40);
    } finally {
      await late.commit();
    }
    expect(resume.seq).to.be.greaterThan(0);
    // Still queued (and reported) while the catch-up goes on from where it was.
    expect(await indexAllQueuedDisclosures(db, { resume })).to.equal(0);
    expect(await count('audit_disclosure_backlog')).to.equal(1);
    expect(await reportOf(late.resident)).to.have.length(1);
    // From the start (the sweep, ops, a new instance): taken.
    expect(await indexAllQueuedDisclosures(db)).to.equal(1);
    expect(await indexedSeqsOf(late.resident)).to.have.length(1);
  });

  it('a batch after 20,000 dequeued rows reads a few index pages, not every dead entry before it (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip(); // SQLite deletes index entries with their rows
    const resident = randomUUID();
    await indexAllQueuedDisclosures(db);
    for (let i = 0; i < 20_000; i += 1_000) {
      await db.transaction(async (trx) => {
        await trx.raw(
          `insert into audit_events (at, request_id, client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures)
           select ?, 'bulk-' || n, 'client-a', ?, 'listCoverage', 200, ?, 1, 'HPAYMT', ? from generate_series(1, 1000) as n`,
          [new Date().toISOString(), orgId, JSON.stringify([resident]), JSON.stringify({ Patient: { [resident]: [0] } })],
        );
      });
    }
    const resume = { seq: 0 };
    expect(await indexAllQueuedDisclosures(db, { limit: 2_048, resume })).to.equal(20_000);
    await trail.record(listEntry([resident]));
    const buffersFrom = async (seq: number) => {
      const [plan] = (await db.raw(`explain (analyze, buffers, format json) select seq from audit_disclosure_backlog where seq >= ? order by seq limit 16`, [seq])).rows[0]['QUERY PLAN'];
      return Number(plan.Plan['Shared Hit Blocks'] ?? 0) + Number(plan.Plan['Shared Read Blocks'] ?? 0);
    };
    // From the last batch's start: that batch's entries at most. From the backlog's start: all
    // 20,000 (57 buffers against 14, 20 since each queued row keeps its instant: migration 049).
    const fromLastBatch = await buffersFrom(resume.seq);
    expect(fromLastBatch).to.be.at.most(30);
    expect(await buffersFrom(0)).to.be.greaterThan(2.5 * fromLastBatch);
    expect(await indexAllQueuedDisclosures(db, { resume })).to.equal(1);
  });

  it('a batch finds its queue entries and audit rows by key, however many the tables hold and whatever their statistics say (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip(); // SQLite joins in the order written (CROSS JOIN)
    const resident = randomUUID();
    await db.raw(
      `insert into audit_events (at, request_id, client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures)
       select ?, 'many-' || n, 'client-a', ?, 'listCoverage', 200, ?, 1, 'HPAYMT', ? from generate_series(1, 20000) as n`,
      [new Date().toISOString(), orgId, JSON.stringify([resident]), JSON.stringify({ Patient: { [resident]: [0] } })],
    );
    await indexAllQueuedDisclosures(db);
    await trail.record(listEntry([resident]));
    // The plan of the batch the catch-up runs (EXPLAIN without ANALYZE runs nothing).
    const [plan] = (await db.raw(`explain (format json) ${POSTGRES_BATCH}`, [0, 1_024])).rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
    const scans: Record<string, string[]> = {};
    const walk = (node: PlanNode) => {
      const table = node['Relation Name'];
      if (table) (scans[table] ??= []).push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan!.Plan);
    // Before: a hash join over a sequential scan of every audit row, at every batch (60 ms at
    // 35,000 rows), and of the whole queue, its dead entries included.
    // audit_events is partitioned by month (migration 039) and the batch names no time: the
    // month holding the rows is probed by its key (directly, or through a bitmap of it),
    // never scanned; an empty partition (DEFAULT, the months ahead) costs nothing either way.
    const month = partitionName('audit_events', periodStart(Date.now(), 'month'));
    expect(scans[month]).to.not.be.empty;
    for (const found of scans[month]!) expect(found).to.be.oneOf([`Index Scan ${month}_pkey`, 'Bitmap Heap Scan']);
    expect(scans.audit_disclosure_backlog).to.not.include('Seq Scan');
    expect(await indexAllQueuedDisclosures(db)).to.equal(1);
  });

  it('the service-side indexer\'s sweep takes a row committed behind a whole batch (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    await indexAllQueuedDisclosures(db);
    const errors: Error[] = [];
    const indexer = new DisclosureIndexer(db, (error) => errors.push(error), 10, 200);
    try {
      const until = async (done: () => Promise<boolean>) => {
        const deadline = Date.now() + 5_000;
        while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      const late = await lateAuditRow();
      try {
        for (let i = 0; i < 40; i++) await trail.record(listEntry([randomUUID()]));
        indexer.wake();
        // The 40 are taken; the late row, not yet committed, is not seen.
        await until(async () => (await count('audit_disclosure_backlog')) === 0);
      } finally {
        await late.commit();
      }
      expect(await count('audit_disclosure_backlog')).to.equal(1);
      // A catch-up woken by a request goes on from where it was, and leaves it.
      indexer.wake();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await count('audit_disclosure_backlog')).to.equal(1);
      // The sweep starts from the beginning.
      indexer.start();
      await until(async () => (await count('audit_disclosure_backlog')) === 0);
      expect(await count('audit_disclosure_backlog')).to.equal(0);
      expect(await indexedSeqsOf(late.resident)).to.have.length(1);
      expect(errors).to.deep.equal([]);
    } finally {
      await indexer.stop();
    }
  });

  it('the service-side indexer indexes a polled page\'s residents once in its month, whatever its batches (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip(); // SQLite's batches follow their time (a batch holds its one writer)
    await indexAllQueuedDisclosures(db);
    const polled = listEntry([randomUUID(), randomUUID()]);
    for (let i = 0; i < 600; i++) await trail.record({ ...polled, requestId: `${polled.requestId}-poll-${i}` });
    const seqs = (await db('audit_events').where('request_id', 'like', `${polled.requestId}-poll-%`).pluck('seq')).map(Number);
    const errors: Error[] = [];
    const indexer = new DisclosureIndexer(db, (error) => errors.push(error), 10);
    try {
      indexer.wake();
      const deadline = Date.now() + 5_000;
      while ((await count('audit_disclosure_backlog')) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await indexer.stop();
    }
    expect(errors).to.deep.equal([]);
    // One text of the month and one index row per resident, not a set per batch (migration 050).
    const key = rawRows<{ key: string }>(await db.raw(`SELECT ${disclosureTextKey('a')} AS key FROM audit_events a WHERE a.seq = ?`, [seqs[0]!]))[0]!.key;
    expect(Number((await db('audit_disclosure_texts').where({ text_key: key }).count({ n: '*' }).first())!.n)).to.equal(1);
    expect(Number((await db('audit_disclosure_index').where({ text_key: key }).count({ n: '*' }).first())!.n)).to.equal(2);
    expect(await indexedSeqsOf(polled.disclosures![0]!.residentId)).to.deep.equal(seqs.sort((x, y) => x - y));
  });

  it('the service-side indexer catches up after the trail tells it, and stops cleanly', async () => {
    const errors: Error[] = [];
    const indexer = new DisclosureIndexer(db, (error) => errors.push(error), 10);
    trail.onDisclosures = () => indexer.wake();
    try {
      await trail.record(listEntry([residents[2]!]));
      const deadline = Date.now() + 5_000;
      while ((await count('audit_disclosure_backlog')) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await count('audit_disclosure_backlog')).to.equal(0);
      expect(errors).to.deep.equal([]);
    } finally {
      trail.onDisclosures = undefined;
      await indexer.stop();
    }
  });

  it('migration 029\'s rollback writes each group\'s requests back into its index rows, and the report stays the same', async function () {
    if (isPostgres(db)) this.skip(); // migration 045 replaced these tables on PostgreSQL (its own rollback: below)
    const resident = randomUUID();
    for (let i = 0; i < 3; i++) await trail.record(listEntry([resident, residents[5]!]));
    await indexAllQueuedDisclosures(db);
    const report = await reportOf(resident);
    expect(report).to.have.length(3);
    const seqs = await indexedSeqsOf(resident);
    await disclosureGroups.down(db);
    try {
      expect(await db.schema.hasTable('audit_disclosure_groups')).to.equal(false);
      const [row] = await db('audit_disclosure_index').where({ org_id: orgId, resident_id: resident });
      expect((JSON.parse(row.seqs) as Array<number | string>).map(Number).sort((x, y) => x - y)).to.deep.equal(seqs);
    } finally {
      await disclosureGroups.up(db);
    }
    // Rows written back keep their own seqs: reported as before.
    expect(await reportOf(resident)).to.deep.equal(report);
  });

  it('migration 028 keeps the disclosure rows written before it in the report, and its rollback writes every disclosure back as those rows', async function () {
    if (isPostgres(db)) this.skip(); // migration 045 replaced these tables on PostgreSQL (its own rollback: below)
    const resident = randomUUID();
    const indexed = listEntry([resident]);
    await trail.record(indexed);
    await indexAllQueuedDisclosures(db);
    const queued = listEntry([resident, randomUUID()]);
    await trail.record(queued);
    const report = await reportOf(resident);
    expect(report).to.have.length(2);

    await disclosureIndex.down(db);
    const expanded = await db('audit_disclosures').where({ resident_id: resident }).orderBy('seq');
    expect(expanded.map((row: { request_id: string; resource_ids: string; purpose: string }) => [row.request_id, JSON.parse(row.resource_ids), row.purpose])).to.deep.equal([
      [indexed.requestId, indexed.disclosures![0]!.resourceIds, 'HPAYMT'],
      [queued.requestId, queued.disclosures![0]!.resourceIds, 'HPAYMT'],
    ]);
    await disclosureIndex.up(db);
    // The rows written back are reported as rows from before 028, exactly as they were.
    expect(await reportOf(resident)).to.deep.equal(report);
  });
});
