// An audit row's long texts stored once (issues 23, 26). A list's audit row held its 50
// record ids (1.9 KB) and the residents they belong to (up to 2.2 KB), and a partner polling a
// page wrote the same two texts request after request: PostgreSQL moved each out of line to
// TOAST at every insert (4.1 KB a row, a TOAST row and index entry each), SQLite to overflow
// pages. Measured with pgbench, 10 rows a commit: 15,000 such rows/s against 42,000 with the
// texts referenced, and 5.5 KB on disk a row against 0.6 (2026-11-26).
// Now a text of INTERNED_FROM characters or more goes in audit_texts once, keyed by its
// SHA-256, and the row names it by that digest (resource_ids_digest, disclosures_digest);
// shorter texts stay in the row, as rows written before this migration do. Readers take
// coalesce(row's text, interned text) (audit/audit-texts.ts). The digest is computed by the
// writer, so a row and its texts go in one statement, and instances of the service share
// texts without asking for ids. used_at is when a writer last confirmed the text is there;
// retention removes a text only long after (retention/purge-expired.ts).
import type { Knex } from 'knex';

const SQLITE_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL OR NEW.disclosures_digest IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;
// PostgreSQL: once per statement, over its new rows (a transition table), where 028's ran a
// PL/pgSQL call per row; the service writes a batch of audit rows per statement.
export const POSTGRES_FUNCTION = `CREATE OR REPLACE FUNCTION queue_audit_disclosures_of_statement() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq)
    SELECT seq FROM audit_rows_inserted WHERE disclosures IS NOT NULL OR disclosures_digest IS NOT NULL;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
const POSTGRES_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  REFERENCING NEW TABLE AS audit_rows_inserted FOR EACH STATEMENT EXECUTE FUNCTION queue_audit_disclosures_of_statement()`;
// Migration 028's.
const SQLITE_TRIGGER_028 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;
const POSTGRES_TRIGGER_028 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.disclosures IS NOT NULL) EXECUTE FUNCTION queue_audit_disclosures()`;

async function replaceTrigger(db: Knex, sqlite: string, postgres: string): Promise<void> {
  const pg = db.client.config.client === 'pg';
  await db.raw('DROP TRIGGER IF EXISTS audit_events_disclosure_backlog' + (pg ? ' ON audit_events' : ''));
  await db.raw(pg ? postgres : sqlite);
}

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_texts', (t) => {
    t.string('digest', 64).primary();
    t.text('text').notNullable();
    t.string('used_at', 32).notNullable();
  });
  await db.raw('CREATE INDEX audit_texts_used_at ON audit_texts (used_at)');
  await db.schema.alterTable('audit_events', (t) => {
    t.string('resource_ids_digest', 64).nullable();
    t.string('disclosures_digest', 64).nullable();
  });
  if (db.client.config.client === 'pg') await db.raw(POSTGRES_FUNCTION);
  await replaceTrigger(db, SQLITE_TRIGGER, POSTGRES_TRIGGER);
}

/** Every interned text back into its rows, so a rollback loses nothing. */
export async function down(db: Knex): Promise<void> {
  for (const column of ['resource_ids', 'disclosures']) {
    await db.raw(
      `UPDATE audit_events SET ${column} = (SELECT t.text FROM audit_texts t WHERE t.digest = audit_events.${column}_digest)
       WHERE ${column}_digest IS NOT NULL`,
    );
  }
  await replaceTrigger(db, SQLITE_TRIGGER_028, POSTGRES_TRIGGER_028);
  if (db.client.config.client === 'pg') {
    await db.raw('DROP FUNCTION IF EXISTS queue_audit_disclosures_of_statement()');
    await db.raw('ALTER TABLE audit_events DROP COLUMN resource_ids_digest, DROP COLUMN disclosures_digest');
  } else {
    await db.raw('ALTER TABLE audit_events DROP COLUMN resource_ids_digest');
    await db.raw('ALTER TABLE audit_events DROP COLUMN disclosures_digest');
  }
  await db.schema.dropTableIfExists('audit_texts');
}
