// Rows of one organization in every table that has an org_id column, read from the live
// schema (so tables added later are counted too): the partial-write check of messages that
// write several resource types. A refused message must leave every count as it was. The
// message store (inbound_messages) is left out: it keeps every message, refused ones too, and
// is checked on its own (storedMessages).
import type { Knex } from 'knex';
import { isPostgres, rawRows } from '../../../server/src/db/database.js';

async function orgTables(db: Knex): Promise<string[]> {
  const rows = isPostgres(db)
    ? // A partitioned history table (db/history-tables.ts) is counted as a whole, not per partition.
      rawRows<{ name: string }>(await db.raw(`SELECT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'org_id' AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition) ORDER BY 1`))
    : rawRows<{ name: string }>(await db.raw(`SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'org_id' ORDER BY 1`));
  return rows.map((r) => r.name).filter((name) => name !== 'inbound_messages');
}

/** The message store's messages of a road (not reprocess outcomes), by status. */
export async function storedMessages(db: Knex, road: string): Promise<RowCounts> {
  const rows = (await db('inbound_messages').where({ road }).whereNull('reprocess_of').groupBy('status').select('status').count({ n: '*' })) as Array<{ status: string; n: number | string }>;
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export type RowCounts = Record<string, number>;

export async function orgRowCounts(db: Knex, orgId: string): Promise<RowCounts> {
  const counts: RowCounts = {};
  for (const table of await orgTables(db)) {
    const row = (await db(table).where({ org_id: orgId }).count({ n: '*' }).first()) as { n: number | string };
    counts[table] = Number(row.n);
  }
  return counts;
}

/** The tables whose count changed, with before and after. */
export function changedCounts(before: RowCounts, after: RowCounts): Record<string, [number, number]> {
  const changed: Record<string, [number, number]> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if ((before[table] ?? 0) !== (after[table] ?? 0)) changed[table] = [before[table] ?? 0, after[table] ?? 0];
  }
  return changed;
}
