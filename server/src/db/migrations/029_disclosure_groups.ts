// The disclosure index's audit rows listed once per text, not once per resident (issue 23).
// Migration 028's catch-up wrote, per batch, one index row per (organization, resident) with
// the seqs of every audit row of the batch that named the resident: a partner polling one
// page of 50 residents had each request's seq written 50 times (about 45 KB of index rows per
// batch of 128 requests), and on SQLite that writing, its write-ahead log and checkpoints
// were about 25 µs of a --payer list request (docs/benchmarks.md). Now a batch's audit rows
// are grouped by their disclosures text into audit_disclosure_groups (the group's seqs, once),
// and each resident a text names gets a small index row whose first_seq is its group's: the
// report takes the seqs from the group when there is one (rows written before this migration
// keep their own seqs, and no group shares their first_seq, since every audit row is indexed
// once). (last_seq) serves the purge, as on the index.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_disclosure_groups', (t) => {
    t.bigInteger('first_seq').primary();
    t.bigInteger('last_seq').notNullable();
    t.text('seqs').notNullable();
  });
  await db.raw('CREATE INDEX audit_disclosure_groups_last_seq ON audit_disclosure_groups (last_seq)');
}

/** Back to 028's rows: each index row that points to a group takes the group's seqs. */
export async function down(db: Knex): Promise<void> {
  await db.raw(
    `UPDATE audit_disclosure_index SET seqs = (SELECT g.seqs FROM audit_disclosure_groups g WHERE g.first_seq = audit_disclosure_index.first_seq)
     WHERE EXISTS (SELECT 1 FROM audit_disclosure_groups g WHERE g.first_seq = audit_disclosure_index.first_seq)`,
  );
  await db.schema.dropTableIfExists('audit_disclosure_groups');
}
