// Six months of audit history generated inside PostgreSQL (the scale benchmark, issue 43):
// the rows a deployment's coverage list requests would have left, written with
// INSERT ... SELECT generate_series, not through the service, so 10^8 rows take an hour, not days.
//
// What the rows are, and why they look like the service's own:
// - Templates are real: the service answers one coverage list page (50 records) before the
//   generation and its audit row and two long texts (the page's record ids, its disclosures)
//   are read back. Every generated row copies that row's columns (operation, status,
//   result_count, purpose; the texts stored apart in audit_texts, named by SHA-256 digest as
//   audit/audit-texts.ts names them; resource_ids and disclosures NULL in the row).
// - Pages: `pages` distinct pages, each the real page with every record id and resident id
//   replaced by an id of its own (an md5 of page and original id, as a UUID), the JSON layout
//   and the positions of the records kept byte for byte; digests by sha256() in the database.
//   Row i reads page (i / readsPerPass) mod pages: each page is read rows/pages times over the
//   six months, so each of its residents is disclosed that often (readsPerPage).
// - Partners: 40 credentials of the organization (real clients), a page read by one of them.
// - Time: `at` spread evenly from the first day of the month five months back to now, seq
//   in the same order (1..rows, the sequence moved past them), request ids as UUIDs.
// - The accounting of disclosures as the service's catch-up leaves it (audit/disclosure-index.ts,
//   migrations 045, 050): one audit_disclosure_texts row per (month, text) read that month,
//   and each resident the text names one audit_disclosure_index row per month and text; the
//   report finds a text's rows through the audit rows' own index on their text key. The
//   backlog is empty (every row indexed). `readsPerPass` (default 1) consecutive reads of a
//   page, as a catch-up pass about a second long would find a page polled that often.
// - Loaded as an operator's bulk load would be: each month's partition created beside the
//   table with its range CHECK (as the service's partition keeper creates them,
//   db/history-partitions.ts), filled, then attached, which builds its indexes from the
//   partitioned table's; the disclosure tables filled with their indexes dropped and then
//   recreated from their own definitions. The measured state has exactly the migrations'
//   indexes. Then VACUUM ANALYZE (autovacuum would have visited six-month-old partitions).
import pg from 'pg';
import { boundOf, nextPeriod, partitionName, periodStart } from '../../server/src/db/history-partitions.js';

export interface GenerationPlan {
  rows: number;
  /** Distinct pages (each with its own 50 records and residents). */
  pages: number;
  /** Consecutive reads of one page (a catch-up pass finds them together). */
  readsPerPass: number;
  orgId: string;
  facilityId: string;
  clientIds: string[];
  /** The real row the rows copy: its columns and its two texts. */
  template: { operation: string; status: number; resultCount: number; purpose: string; idsText: string; disclosuresText: string };
  now: number;
}

export interface GeneratedMonth {
  partition: string;
  from: string;
  to: string;
  rows: number;
}

export interface GenerationResult {
  rows: number;
  pages: number;
  readsPerPage: number;
  readsPerPass: number;
  residentsPerPage: number;
  months: GeneratedMonth[];
  /** Rows of audit_disclosure_texts: (month, text) pairs. */
  texts: number;
  indexRows: number;
  /** Seconds per step, and in all. */
  seconds: { texts: number; auditRows: number; disclosureIndex: number; vacuumAnalyze: number; total: number };
  /** A resident of a page in the middle, and how many reads disclosed it. */
  measuredResident: { id: string; disclosures: number };
}

const AUDIT_COLUMNS = 'seq, at, request_id, client_id, org_id, facility_id, operation, status, resource_ids, result_count, purpose, disclosures, resource_ids_digest, disclosures_digest';

/** An id of page `k` derived from a template id: md5 as a UUID (SQL expression). */
const derived = (k: string, id: string) => `md5(${k}::text || ':' || ${id})::uuid::text`;

/** `at` of row i as the service writes it (db/clock.ts: ISO 8601, milliseconds, Z). */
const atOf = (start: number, span: number, rows: number) =>
  `to_char(timestamp 'epoch' + ((${start}::bigint + (i * ${span}::bigint) / ${rows}::bigint)::float8 * interval '1 millisecond'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function monthsOf(now: number): number[] {
  const months: number[] = [];
  let from = periodStart(now, 'month');
  for (let i = 0; i < 5; i++) from = periodStart(from - 1, 'month');
  for (let i = 0; i < 6; i++, from = nextPeriod(from, 'month')) months.push(from);
  return months;
}

/** The first row index whose `at` is at or after `instant` (rows spread evenly over [start, start + span)). */
function firstRowAt(instant: number, start: number, span: number, rows: number): number {
  if (instant <= start) return 0;
  const d = BigInt(instant - start) * BigInt(rows);
  const i = d / BigInt(span) + (d % BigInt(span) === 0n ? 0n : 1n);
  return Math.min(rows, Number(i));
}

async function indexDefinitions(client: pg.Client, table: string): Promise<{ drops: string[]; creates: string[] }> {
  const { rows } = await client.query<{ name: string; def: string; constraint_def: string | null }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def,
            (SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid) AS constraint_def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass ORDER BY c.relname`,
    [table],
  );
  return {
    drops: rows.map((r) => (r.constraint_def ? `ALTER TABLE "${table}" DROP CONSTRAINT "${r.name}"` : `DROP INDEX "${r.name}"`)),
    creates: rows.map((r) => (r.constraint_def ? `ALTER TABLE "${table}" ADD CONSTRAINT "${r.name}" ${r.constraint_def}` : r.def)),
  };
}

/**
 * Generates the plan's rows into an empty audit trail (no audit row, nothing queued or
 * indexed; the current month's partition empty). `log` is told each step.
 */
export async function generateAuditHistory(databaseUrl: string, plan: GenerationPlan, log: (line: string) => void): Promise<GenerationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  const t0 = performance.now();
  const seconds = { texts: 0, auditRows: 0, disclosureIndex: 0, vacuumAnalyze: 0, total: 0 };
  try {
    await q(`SET work_mem = '256MB'`);
    await q(`SET maintenance_work_mem = '1GB'`);
    const empty = await q(`SELECT (SELECT count(*) FROM (SELECT 1 FROM audit_events LIMIT 1) a) + (SELECT count(*) FROM (SELECT 1 FROM audit_disclosure_index LIMIT 1) b) AS n`);
    if (Number(empty.rows[0].n) !== 0) throw new Error('the audit trail must be empty before the generation');
    const { rows, pages, readsPerPass } = plan;
    /** Runs of consecutive reads of one page. */
    const runs = Math.ceil(rows / readsPerPass);

    // The pages: ids and texts derived from the real page, digests as the service makes them.
    let t = performance.now();
    await q(`CREATE TEMP TABLE scale_template_ids AS SELECT ord::int, value AS id FROM json_array_elements_text($1::json) WITH ORDINALITY AS e(value, ord)`, [plan.template.idsText]);
    await q(`CREATE TEMP TABLE scale_template_residents AS SELECT ord::int, key AS id, value::text AS records FROM json_each($1::json -> 'Coverage') WITH ORDINALITY AS e(key, value, ord)`, [plan.template.disclosuresText]);
    const residentsPerPage = Number((await q('SELECT count(*) AS n FROM scale_template_residents')).rows[0].n);
    if (plan.template.disclosuresText !== `{"Coverage":{${(await q(`SELECT string_agg('"' || id || '":' || records, ',' ORDER BY ord) AS t FROM scale_template_residents`)).rows[0].t}}}`)
      throw new Error('the template page discloses other than Coverages; the generator rebuilds only {"Coverage":{...}}');
    await q(`CREATE TABLE scale_pages AS
      SELECT k,
        '[' || (SELECT string_agg('"' || ${derived('k', 't.id')} || '"', ',' ORDER BY t.ord) FROM scale_template_ids t) || ']' AS ids_text,
        '{"Coverage":{' || (SELECT string_agg('"' || ${derived('k', 'r.id')} || '":' || r.records, ',' ORDER BY r.ord) FROM scale_template_residents r) || '}}' AS disclosures_text
      FROM generate_series(0, $1::int - 1) k`, [pages]);
    await q(`ALTER TABLE scale_pages ADD COLUMN ids_digest varchar(64), ADD COLUMN disclosures_digest varchar(64)`);
    await q(`UPDATE scale_pages SET ids_digest = encode(sha256(convert_to(ids_text, 'UTF8')), 'hex'), disclosures_digest = encode(sha256(convert_to(disclosures_text, 'UTF8')), 'hex')`);
    await q('ALTER TABLE scale_pages ADD PRIMARY KEY (k)');
    await q(`CREATE TABLE scale_page_residents AS SELECT p.k, ${derived('p.k', 'r.id')}::uuid AS resident_id, r.ord FROM scale_pages p CROSS JOIN scale_template_residents r`);
    // A text's used_at: when a writer last confirmed it, at most a day before the page's last read.
    const start = monthsOf(plan.now)[0]!;
    const span = plan.now - start;
    const usedAt = boundOf(plan.now - 3_600_000);
    await q(`INSERT INTO audit_texts (digest, text, used_at)
      SELECT ids_digest, ids_text, $1 FROM scale_pages UNION ALL SELECT disclosures_digest, disclosures_text, $1 FROM scale_pages
      ON CONFLICT (digest) DO NOTHING`, [usedAt]);
    seconds.texts = (performance.now() - t) / 1000;
    log(`    ${pages.toLocaleString('en-US')} pages (${residentsPerPage} residents each), their ${(2 * pages).toLocaleString('en-US')} texts: ${seconds.texts.toFixed(1)} s`);

    // The audit rows, a month's partition at a time: created beside the table, filled, attached.
    t = performance.now();
    await q(`CREATE TEMP TABLE scale_clients AS SELECT (n - 1)::int AS n, id FROM unnest($1::text[]) WITH ORDINALITY AS c(id, n)`, [plan.clientIds]);
    const months: GeneratedMonth[] = [];
    const rowRanges: Array<{ from: number; lo: number; hi: number }> = [];
    for (const from of monthsOf(plan.now)) {
      const to = nextPeriod(from, 'month');
      const name = partitionName('audit_events', from);
      const lo = firstRowAt(from, start, span, rows);
      const hi = firstRowAt(to, start, span, rows);
      const tm = performance.now();
      // The month may exist (the current one, created by the migrations): empty, it is made again.
      const exists = (await q('SELECT to_regclass($1) IS NOT NULL AS e', [name])).rows[0].e as boolean;
      if (exists) {
        await q(`ALTER TABLE audit_events DETACH PARTITION "${name}"`);
        await q(`DROP TABLE "${name}"`);
      }
      await q(`CREATE TABLE "${name}" (LIKE audit_events INCLUDING DEFAULTS)`);
      await q(`ALTER TABLE "${name}" ADD CONSTRAINT "${name}_range" CHECK (at IS NOT NULL AND at >= '${boundOf(from)}' AND at < '${boundOf(to)}')`);
      if (hi > lo) {
        await q(`INSERT INTO "${name}" (${AUDIT_COLUMNS})
          SELECT i + 1, ${atOf(start, span, rows)}, md5('request ' || i)::uuid::text, c.id, $1::uuid, $2::uuid, $3, $4, NULL, $5, $6, NULL, p.ids_digest, p.disclosures_digest
          FROM generate_series($7::bigint, $8::bigint - 1) i
          JOIN scale_pages p ON p.k = (i / ${readsPerPass}) % ${pages}
          JOIN scale_clients c ON c.n = p.k % ${plan.clientIds.length}`,
          [plan.orgId, plan.facilityId, plan.template.operation, plan.template.status, plan.template.resultCount, plan.template.purpose, lo, hi]);
      }
      await q(`ALTER TABLE audit_events ATTACH PARTITION "${name}" FOR VALUES FROM ('${boundOf(from)}') TO ('${boundOf(to)}')`);
      months.push({ partition: name, from: boundOf(from), to: boundOf(to), rows: hi - lo });
      rowRanges.push({ from, lo, hi });
      log(`    ${name}: ${(hi - lo).toLocaleString('en-US')} rows loaded and indexed in ${((performance.now() - tm) / 1000).toFixed(1)} s`);
    }
    await q(`SELECT setval(pg_get_serial_sequence('audit_events', 'seq'), $1)`, [rows]);
    seconds.auditRows = (performance.now() - t) / 1000;

    // The accounting of disclosures, as the catch-up leaves it (migrations 045, 050): a text
    // row per month and page text read that month; an index row per resident, month and text.
    // The months' partitions first (the migrations made the current one).
    t = performance.now();
    for (const table of ['audit_disclosure_texts', 'audit_disclosure_index']) {
      for (const from of monthsOf(plan.now)) {
        await q(`CREATE TABLE IF NOT EXISTS "${partitionName(table, from)}" PARTITION OF ${table} FOR VALUES FROM ('${boundOf(from)}') TO ('${boundOf(nextPeriod(from, 'month'))}')`);
      }
    }
    const textIndexes = await indexDefinitions(client, 'audit_disclosure_texts');
    const indexIndexes = await indexDefinitions(client, 'audit_disclosure_index');
    for (const drop of [...textIndexes.drops, ...indexIndexes.drops]) await q(drop);
    let texts = 0;
    for (const { from, lo, hi } of rowRanges) {
      if (hi <= lo) continue;
      // Every page is read in a month of at least a round of them; else the ones its rows read.
      const read = hi - lo >= pages * readsPerPass
        ? `SELECT k FROM generate_series(0, ${pages - 1}) k`
        : `SELECT DISTINCT (i / ${readsPerPass}) % ${pages} AS k FROM generate_series(${lo}::bigint, ${hi - 1}::bigint) i`;
      const inserted = await q(`INSERT INTO audit_disclosure_texts (month, org_id, text_key)
        SELECT '${boundOf(from)}', $1::uuid, p.disclosures_digest FROM (${read}) r JOIN scale_pages p ON p.k = r.k`, [plan.orgId]);
      texts += inserted.rowCount ?? 0;
    }
    const indexed = await q(`INSERT INTO audit_disclosure_index (org_id, resident_id, month, text_key)
      SELECT $1::uuid, r.resident_id, t.month, t.text_key
      FROM audit_disclosure_texts t JOIN scale_pages p ON p.disclosures_digest = t.text_key JOIN scale_page_residents r ON r.k = p.k`, [plan.orgId]);
    for (const create of [...textIndexes.creates, ...indexIndexes.creates]) await q(create);
    seconds.disclosureIndex = (performance.now() - t) / 1000;
    const indexRows = indexed.rowCount ?? 0;
    log(`    disclosure index: ${texts.toLocaleString('en-US')} texts of a month, ${indexRows.toLocaleString('en-US')} index rows, indexes rebuilt: ${seconds.disclosureIndex.toFixed(1)} s`);

    const k = Math.floor(pages / 2);
    const resident = (await q('SELECT resident_id FROM scale_page_residents WHERE k = $1 ORDER BY ord LIMIT 1', [k])).rows[0].resident_id as string;
    let disclosures = 0;
    for (let g = k; g < runs; g += pages) disclosures += Math.min(readsPerPass, rows - g * readsPerPass);
    await q('DROP TABLE scale_pages, scale_page_residents');

    t = performance.now();
    for (const table of ['audit_events', 'audit_texts', 'audit_disclosure_texts', 'audit_disclosure_index']) await q(`VACUUM ANALYZE "${table}"`);
    seconds.vacuumAnalyze = (performance.now() - t) / 1000;
    seconds.total = (performance.now() - t0) / 1000;
    log(`    VACUUM ANALYZE: ${seconds.vacuumAnalyze.toFixed(1)} s; generated in ${seconds.total.toFixed(0)} s (${((seconds.total * 1e6) / rows).toFixed(1)} s per 10^6 rows)`);
    return { rows, pages, readsPerPage: rows / pages, readsPerPass, residentsPerPage, months, texts, indexRows, seconds, measuredResident: { id: resident, disclosures } };
  } finally {
    await client.end();
  }
}
