// The accounting of disclosures, written once per request instead of once per resident
// (issues 23, 26). Migration 019 wrote one audit_disclosures row per resident an answer
// showed, each landing at a random place of its (org_id, resident_id, at) index: on SQLite
// that was 40% of a coverage list's cost. Now:
// - audit_events.purpose and .disclosures: the credential's purpose of use and which of the
//   row's resource_ids belong to which resident (db/disclosure-encoding.ts), in the
//   request's own audit row, durable before the answer as before.
// - audit_disclosure_backlog: the audit rows with disclosures not yet in the index, kept by a
//   trigger in the row's own transaction, whoever writes it.
// - audit_disclosure_index: built from the backlog in the background (audit/disclosure-index.ts),
//   a batch of audit rows at a time: one row per (organization, resident) a batch disclosed,
//   with the batch's audit rows that disclosed it (seqs, a JSON array; first_seq and last_seq
//   its bounds). A partner polling the same page writes one index row per resident and batch,
//   not per request. The report reads the index and the backlog in one statement: exact at
//   every instant, indexed or not. (last_seq) serves the purge.
// audit_disclosures keeps the rows written before this migration; the report still reads
// them, and nothing writes it any more.
import type { Knex } from 'knex';
import { decodeDisclosures } from '../disclosure-encoding.js';

const SQLITE_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;

const POSTGRES_FUNCTION = `CREATE OR REPLACE FUNCTION queue_audit_disclosures() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq);
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

const POSTGRES_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.disclosures IS NOT NULL) EXECUTE FUNCTION queue_audit_disclosures()`;

export async function up(db: Knex): Promise<void> {
  const postgres = db.client.config.client === 'pg';
  await db.schema.alterTable('audit_events', (t) => {
    t.string('purpose', 32).nullable();
    t.text('disclosures').nullable();
  });
  if (postgres) {
    await db.schema.createTable('audit_disclosure_backlog', (t) => {
      t.bigInteger('seq').primary();
    });
  } else {
    // The rowid itself: one b-tree, no second index to keep.
    await db.raw('CREATE TABLE audit_disclosure_backlog (seq integer PRIMARY KEY)');
  }
  await db.schema.createTable('audit_disclosure_index', (t) => {
    t.uuid('org_id').notNullable();
    t.uuid('resident_id').notNullable();
    t.bigInteger('first_seq').notNullable();
    t.bigInteger('last_seq').notNullable();
    t.text('seqs').notNullable();
    t.primary(['org_id', 'resident_id', 'first_seq']);
  });
  if (postgres) {
    await db.raw(POSTGRES_FUNCTION);
    await db.raw(POSTGRES_TRIGGER);
  } else {
    await db.raw(SQLITE_TRIGGER);
  }
  await db.raw('CREATE INDEX audit_disclosure_index_last_seq ON audit_disclosure_index (last_seq)');
}

/** Back to one audit_disclosures row per (request, resident), so a rollback loses no accounting. */
async function expandIntoAuditDisclosures(db: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = (await db('audit_events').whereNotNull('disclosures').andWhere('seq', '>', after).orderBy('seq').limit(500)
      .select('seq', 'at', 'request_id', 'client_id', 'org_id', 'operation', 'purpose', 'resource_ids', 'disclosures')) as Array<Record<string, string | number | null>>;
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]!.seq);
    const expanded = rows.flatMap((row) =>
      decodeDisclosures(String(row.disclosures), row.resource_ids ? (JSON.parse(String(row.resource_ids)) as string[]) : null).map((d) => ({
        org_id: row.org_id, resident_id: d.residentId, at: row.at, request_id: row.request_id, client_id: row.client_id,
        purpose: row.purpose ?? 'HOPERAT', operation: row.operation, resource_type: d.resourceType, resource_ids: JSON.stringify(d.resourceIds),
      })),
    );
    for (let i = 0; i < expanded.length; i += 100) await db('audit_disclosures').insert(expanded.slice(i, i + 100));
  }
}

export async function down(db: Knex): Promise<void> {
  await expandIntoAuditDisclosures(db);
  await db.raw('DROP TRIGGER IF EXISTS audit_events_disclosure_backlog' + (db.client.config.client === 'pg' ? ' ON audit_events' : ''));
  if (db.client.config.client === 'pg') await db.raw('DROP FUNCTION IF EXISTS queue_audit_disclosures()');
  await db.schema.dropTableIfExists('audit_disclosure_index');
  await db.schema.dropTableIfExists('audit_disclosure_backlog');
  await db.schema.alterTable('audit_events', (t) => {
    t.dropColumn('disclosures');
    t.dropColumn('purpose');
  });
}
