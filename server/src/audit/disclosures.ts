// The accounting of disclosures (HIPAA 164.528): every disclosure of one resident's data to a
// partner, oldest first, from the two places that record them: the audit trail (reads and
// lists that returned the resident's records: each request's audit row names the residents
// it disclosed, found through audit_disclosure_index or, not yet indexed, in its backlog;
// audit_disclosures for rows written before migration 028) and the delivery log (webhook
// deliveries of events about the resident that were sent). Each is read through an index on
// (organization, resident), so one resident is found among millions of rows (the bench
// measures it).
import type { Knex } from 'knex';
import { DEFAULT_PURPOSE } from '../tenancy/access-policy.js';
import { disclosuresOfResidentIn, type Disclosure } from '../db/disclosure-encoding.js';
import { RESOLVED_TEXTS, TEXTS_JOIN, TEXTS_LOOKED_UP } from './audit-texts.js';
import { isPostgres, rawRows, withoutJit } from '../db/database.js';
import { BEFORE_045, hasIndexBefore045 } from '../db/disclosure-index-before-045.js';
import { disclosesAnyone, disclosureTextKey } from '../db/disclosure-text-key.js';

export interface DisclosureRecord {
  at: string;
  client_id: string;
  client_name: string | null;
  purpose: string;
  channel: 'api' | 'webhook';
  operation: string;
  resource_types: string[];
  resource_ids: string[];
}

export interface DisclosureQuery {
  orgId: string;
  residentId: string;
  /** Inclusive ISO 8601 instant. */
  from?: string | undefined;
  /** Exclusive ISO 8601 instant. */
  to?: string | undefined;
}

/**
 * What an answer that returned `rows` of `resourceType` disclosed, resident by resident;
 * `first`: where the rows start among the answer's resource ids (after the rows of another
 * type an R4 search returns first).
 */
export function disclosuresOf(resourceType: string, rows: ReadonlyArray<{ id: string; resident_id?: unknown }>, first = 0): Disclosure[] {
  const byResident = new Map<string, Disclosure>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const residentId = resourceType === 'Patient' ? row.id : String(row.resident_id);
    const disclosure = byResident.get(residentId);
    if (disclosure) {
      disclosure.resourceIds.push(row.id);
      disclosure.positions!.push(first + i);
    } else {
      // Arrays of one, not empty ones pushed to (a first push reserves room for 17): a payer's
      // page names a resident per record, 50 of them.
      byResident.set(residentId, { residentId, resourceType, resourceIds: [row.id], positions: [first + i] });
    }
  }
  return [...byResident.values()];
}

/**
 * What an answer naming these residents' events disclosed: an event carries ids only, and
 * names its resident (that the resident was admitted, a Coverage of theirs changed...). It is
 * listed as a webhook delivery of the event is (below): the resident's Patient.
 */
export function eventDisclosures(residentIds: Iterable<string>): Disclosure[] {
  return [...new Set(residentIds)].map((residentId) => ({ residentId, resourceType: 'Patient', resourceIds: [residentId] }));
}

/**
 * The requests that disclosed the resident, indexed or still queued, in one statement (one
 * snapshot: a row the catch-up moves meanwhile is seen in one place or the other, never
 * neither; an index row's requests are its group's, or its own seqs before migration 029),
 * each branch driven from its small side: the resident's index rows, the backlog.
 * SQLite keeps a CROSS JOIN's order; PostgreSQL gets a LATERAL lookup it cannot turn around
 * (LIMIT 1: seq is the key), since with a fresh table's statistics it had scanned every audit
 * row of the organization (1 s among 10^6).
 */
const COLUMNS = `a.seq, a.at, a.client_id, c.name AS client_name, a.purpose, a.operation, ${RESOLVED_TEXTS}`;

function postgresReadsSql(bounds: string, monthBounds: string, before045: boolean): string {
  const row = (seq: string, where = '') =>
    `CROSS JOIN LATERAL (SELECT * FROM audit_events a WHERE a.seq = ${seq}${where}${bounds} LIMIT 1) a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}`;
  // Migrations 045, 050: the texts of the resident's index rows (a row per month and text),
  // and each text's audit rows through the index on (organization, text key) of every
  // partition. A text names the same residents whichever month its rows are in, so a text's
  // rows are the resident's wherever they are; the months only bound what the report asks
  // for. Not bounded to the index row's month: PostgreSQL would then have pruned the other
  // partitions as the statement ran, but planned each partition's lookup on the instants'
  // index, whose selectivity for bounds it cannot see it guesses at 0.5%, and read the month's
  // every row (EXPLAIN ANALYZE, 2026-11-29). A probe of an index per partition costs a few
  // pages. OFFSET 0 keeps the lookup a lookup: flattened into a join, a fresh table's
  // statistics could hash every row.
  const indexed = `SELECT ${COLUMNS}
  FROM (SELECT DISTINCT i.org_id, i.text_key FROM audit_disclosure_index i WHERE i.org_id = ? AND i.resident_id = ?${monthBounds}) i
  CROSS JOIN LATERAL (SELECT * FROM audit_events a WHERE a.org_id = i.org_id AND ${disclosureTextKey('a')} = i.text_key AND ${disclosesAnyone('a')}${bounds} OFFSET 0) a
  LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_LOOKED_UP}`;
  // Rows indexed before it, where they stay until retention has removed them.
  const indexedBefore045 = `SELECT ${COLUMNS}
  FROM ${BEFORE_045.index} i LEFT JOIN ${BEFORE_045.groups} g ON g.first_seq = i.first_seq
  CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(g.seqs, i.seqs)::jsonb) s(value) ${row('s.value::bigint')}
  WHERE i.org_id = ? AND i.resident_id = ?`;
  const queued = `SELECT ${COLUMNS}
  FROM audit_disclosure_backlog b ${row('b.seq', ' AND a.at = b.at AND a.org_id = ?')}`;
  // Each row once, by its seq: a row queued before its text was indexed in its month is found
  // by its text too, and a row indexed before 045 by its text since. DISTINCT ON the seq
  // rather than UNION, which would compare whole rows, two texts of 2 KB each.
  return `SELECT * FROM (SELECT DISTINCT ON (seq) * FROM (
  ${[indexed, ...(before045 ? [indexedBefore045] : []), queued].join('\n  UNION ALL\n  ')}
  ) found ORDER BY seq) r
  ORDER BY 2, 1`;
}

function sqliteReadsSql(bounds: string): string {
  return `SELECT ${COLUMNS}
  FROM audit_disclosure_index i LEFT JOIN audit_disclosure_groups g ON g.first_seq = i.first_seq
  CROSS JOIN json_each(coalesce(g.seqs, i.seqs)) s CROSS JOIN audit_events a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}
  WHERE i.org_id = ? AND i.resident_id = ? AND a.seq = s.value${bounds}
  UNION ALL
  SELECT ${COLUMNS}
  FROM audit_disclosure_backlog b CROSS JOIN audit_events a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}
  WHERE a.seq = b.seq AND a.org_id = ?${bounds}
  ORDER BY 2, 1`;
}

interface ReadRow {
  seq: number | string;
  at: string;
  client_id: string;
  client_name: string | null;
  purpose: string | null;
  operation: string;
  resource_ids: string | null;
  disclosures: string;
}

export async function disclosuresOfResident(db: Knex, query: DisclosureQuery): Promise<DisclosureRecord[]> {
  if (!isPostgres(db)) return reportOf(db, query);
  try {
    return await withoutJit(db, (trx) => reportOf(trx, query));
  } catch (error) {
    // 42P01: retention dropped the tables of rows indexed before migration 045, emptied,
    // between the check and the read; read again without them.
    if ((error as { code?: string }).code !== '42P01') throw error;
    return withoutJit(db, (trx) => reportOf(trx, query));
  }
}

async function reportOf(db: Knex, query: DisclosureQuery): Promise<DisclosureRecord[]> {
  const bounded = <Q extends Knex.QueryBuilder>(q: Q, column: string): Q => {
    if (query.from !== undefined) q.andWhere(column, '>=', query.from);
    if (query.to !== undefined) q.andWhere(column, '<', query.to);
    return q;
  };
  const bounds = (query.from !== undefined ? ' AND a.at >= ?' : '') + (query.to !== undefined ? ' AND a.at < ?' : '');
  const boundValues = [...(query.from !== undefined ? [query.from] : []), ...(query.to !== undefined ? [query.to] : [])];
  let sql: string;
  let bindings: unknown[];
  if (isPostgres(db)) {
    // Bindings in the order of the text: the bounds sit inside each lookup, so a report of one
    // year probes that year's partitions only; the index's months are bounded too.
    const monthBounds = (query.from !== undefined ? ' AND i.month >= ?' : '') + (query.to !== undefined ? ' AND i.month < ?' : '');
    const monthValues = [...(query.from !== undefined ? [`${query.from.slice(0, 7)}-01T00:00:00.000Z`] : []), ...(query.to !== undefined ? [query.to] : [])];
    const before045 = await hasIndexBefore045(db);
    sql = postgresReadsSql(bounds, monthBounds, before045);
    bindings = [
      query.orgId, query.residentId, ...monthValues, ...boundValues,
      ...(before045 ? [...boundValues, query.orgId, query.residentId] : []),
      query.orgId, ...boundValues,
    ];
  } else {
    sql = sqliteReadsSql(bounds);
    bindings = [query.orgId, query.residentId, ...boundValues, query.orgId, ...boundValues];
  }
  const readRows = rawRows<ReadRow>(await db.raw(sql, bindings as Knex.RawBinding[]));
  const reads: DisclosureRecord[] = [];
  for (const row of readRows) {
    // A queued row discloses other residents too, or only them. Types in alphabetical order,
    // whatever order the answer had them in.
    const mine = disclosuresOfResidentIn(row.disclosures, row.resource_ids, query.residentId).sort((x, y) => (x.resourceType < y.resourceType ? -1 : 1));
    if (mine.length === 0) continue;
    reads.push({
      at: row.at,
      client_id: row.client_id,
      client_name: row.client_name ?? null,
      purpose: row.purpose ?? DEFAULT_PURPOSE,
      channel: 'api',
      operation: row.operation,
      resource_types: mine.map((d) => d.resourceType),
      resource_ids: mine.flatMap((d) => d.resourceIds),
    });
  }
  // Rows written before migration 028, one per (request, resident).
  const before028 = (await bounded(
    db('audit_disclosures as d')
      .leftJoin('clients as c', 'c.client_id', 'd.client_id')
      .where({ 'd.org_id': query.orgId, 'd.resident_id': query.residentId })
      .orderBy([{ column: 'd.at' }, { column: 'd.seq' }])
      .select('d.at', 'd.client_id', 'c.name as client_name', 'd.purpose', 'd.operation', 'd.resource_type', 'd.resource_ids'),
    'd.at',
  )) as Array<{ at: string; client_id: string; client_name: string | null; purpose: string; operation: string; resource_type: string; resource_ids: string }>;
  // A delivery discloses its event once it was sent (attempted), whatever the receiver answered.
  const sentAt = 'coalesce(w.completed_at, w.last_attempt_at)';
  const deliveries = (await bounded(
    db('webhook_events as e')
      .join('webhook_deliveries as w', 'w.event_id', 'e.id')
      .join('webhook_subscriptions as s', 's.id', 'w.subscription_id')
      .join('clients as c', 'c.id', 's.client_pk')
      .where({ 'e.org_id': query.orgId, 'e.resident_id': query.residentId })
      .andWhere('w.attempts', '>', 0)
      .select(db.raw(`${sentAt} as at`), 'c.client_id', 'c.name as client_name', 'w.purpose', 'c.purpose as current_purpose', 'e.event_type', 'e.resident_id'),
    db.raw(sentAt) as unknown as string,
  )) as Array<{ at: string; client_id: string; client_name: string; purpose: string | null; current_purpose: string; event_type: string; resident_id: string }>;
  const records: DisclosureRecord[] = [
    ...before028.map((r) => ({
      at: r.at,
      client_id: r.client_id,
      client_name: r.client_name ?? null,
      purpose: r.purpose,
      channel: 'api' as const,
      operation: r.operation,
      resource_types: [r.resource_type],
      resource_ids: JSON.parse(r.resource_ids) as string[],
    })),
    ...reads,
    ...deliveries.map((d) => ({
      at: d.at,
      client_id: d.client_id,
      client_name: d.client_name,
      purpose: d.purpose ?? d.current_purpose,
      channel: 'webhook' as const,
      operation: d.event_type,
      resource_types: ['Patient'],
      resource_ids: [d.resident_id],
    })),
  ];
  // Stable: reads keep their commit order among equal instants.
  return records.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** RFC 4180 CSV of the report (lists joined by spaces). */
export function disclosuresCsv(records: DisclosureRecord[]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const header = 'at,client_id,client_name,purpose,channel,operation,resource_types,resource_ids';
  const lines = records.map((r) => [r.at, r.client_id, r.client_name ?? '', r.purpose, r.channel, r.operation, r.resource_types.join(' '), r.resource_ids.join(' ')].map(cell).join(','));
  return [header, ...lines].join('\r\n') + '\r\n';
}
