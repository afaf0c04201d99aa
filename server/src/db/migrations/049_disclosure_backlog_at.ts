// PostgreSQL: each queued audit row (audit_disclosure_backlog) carries its instant, so the
// disclosure catch-up and the report find the row in its month's partition alone.
//
// WHY: audit_events is partitioned by month (migration 039) and kept six years: 72 partitions
// and more. The catch-up looked each queued row up by seq alone, which no partition bound
// names, so every lookup probed every partition's key, oldest first: with 73 partitions a
// batch of 1,000 rows took 39-46 ms to run and 3-16 ms to plan; with the instant, 9-12 ms and
// 2-4 ms (EXPLAIN ANALYZE on a scratch database, 2026-11-29), and PostgreSQL prunes the others
// at run time. Rows queued before this migration get their instant here (the queue is short:
// the catch-up empties it about once a second); a row whose audit row is gone is dropped (it
// indexed nothing before either), and every queued row names its instant from then on (NOT
// NULL). SQLite keeps its plain tables (no partitions) and its trigger.
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';
import { POSTGRES_FUNCTION as QUEUE_BY_SEQ } from './031_audit_texts.js';

/** The queue's function as of this migration (050's rollback restores it). */
export const QUEUE_WITH_INSTANT = `CREATE OR REPLACE FUNCTION queue_audit_disclosures_of_statement() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq, at)
    SELECT seq, at FROM audit_rows_inserted WHERE disclosures IS NOT NULL OR disclosures_digest IS NOT NULL;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  await db.raw('ALTER TABLE audit_disclosure_backlog ADD COLUMN at varchar(32) COLLATE "C"');
  await db.raw(QUEUE_WITH_INSTANT);
  // A lookup by key per queued row (a join could hash every audit row of six years).
  await db.raw('UPDATE audit_disclosure_backlog b SET at = (SELECT a.at FROM audit_events a WHERE a.seq = b.seq LIMIT 1) WHERE b.at IS NULL');
  // A queued row whose audit row is gone indexes nothing (the catch-up found none before either).
  await db.raw('DELETE FROM audit_disclosure_backlog WHERE at IS NULL');
  await db.raw('ALTER TABLE audit_disclosure_backlog ALTER COLUMN at SET NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  // Migration 031's function: rows queued by seq alone.
  await db.raw(QUEUE_BY_SEQ);
  await db.raw('ALTER TABLE audit_disclosure_backlog DROP COLUMN at');
}
