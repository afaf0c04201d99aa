// The accounting of disclosures' index joins the partitioned history on PostgreSQL (issue 43),
// and a resident is indexed once a month per disclosures text instead of once per batch.
//
// Before, the catch-up (audit/disclosure-index.ts) wrote per batch of audit rows one group
// per text (its seqs) and one index row per (resident, group), keyed by seq: a page polled
// every few seconds wrote its 50 residents again at every batch, about 4 KB of index a
// request, and retention deleted a month of those rows (10^7-row runs: 43 million rows, 107 s
// and 11 GiB of WAL) after dropping the month's audit partition. Now:
// - audit_disclosure_groups: per batch, organization, month of the audit rows and text (its
//   key: the stored text's SHA-256, or the md5 of a text kept in the row), the seqs of the
//   batch's rows with that text and their first and last instants. A batch's rows of two
//   months make two groups, so no group points outside its month.
// - audit_disclosure_index: one row per (organization, resident, month, text key), written
//   once (ON CONFLICT DO NOTHING): the residents of a text already grouped this month are not
//   read again. The report goes from the resident's rows to their groups, and from each seq to
//   its audit row in the month's partition.
// - Both are partitioned by month (db/history-tables.ts) like audit_events: retention drops a
//   month's disclosure partitions with the month's audit partition, and a batch DELETE of the
//   audit rows of the month straddling the cut-off needs no index upkeep (a group's seq whose
//   audit row is gone reads nothing).
// Rows indexed before this migration stay where they are, renamed `<table>_before_045`, read
// by the report and deleted by retention as before until they are gone (then dropped): moving
// them would need each group's month, which a group of a batch across two months does not
// have. A database with none drops the old tables.
// SQLite keeps its tables and its catch-up (a single site's history).
import type { Knex } from 'knex';
import { isPostgres, rawRows } from '../database.js';
import { historyTable } from '../history-tables.js';
import { ensurePartitions, defaultPartitionName } from '../history-partitions.js';
import { BEFORE_045, hasIndexBefore045 } from '../disclosure-index-before-045.js';

const OLD_INDEXES: Record<string, string[]> = {
  audit_disclosure_index: ['audit_disclosure_index_pkey', 'audit_disclosure_index_last_seq'],
  audit_disclosure_groups: ['audit_disclosure_groups_pkey', 'audit_disclosure_groups_last_seq'],
};

async function hasRows(db: Knex, table: string): Promise<boolean> {
  return rawRows(await db.raw(`SELECT 1 FROM "${table}" LIMIT 1`)).length > 0;
}

/** The groups' table as this migration makes it (migration 050 drops it, and its rollback makes it again). */
export const GROUPS_TABLE = `CREATE TABLE IF NOT EXISTS audit_disclosure_groups (
    month varchar(32) COLLATE "C" NOT NULL,
    org_id uuid NOT NULL,
    text_key varchar(64) NOT NULL,
    first_seq bigint NOT NULL,
    last_seq bigint NOT NULL,
    first_at varchar(32) COLLATE "C" NOT NULL,
    last_at varchar(32) COLLATE "C" NOT NULL,
    seqs text NOT NULL,
    PRIMARY KEY (org_id, text_key, month, first_seq)
  ) PARTITION BY RANGE (month)`;

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  const keep = (await hasRows(db, 'audit_disclosure_index')) || (await hasRows(db, 'audit_disclosure_groups'));
  for (const table of ['audit_disclosure_index', 'audit_disclosure_groups'] as const) {
    if (!keep) {
      await db.raw(`DROP TABLE "${table}"`);
      continue;
    }
    const renamed = table === 'audit_disclosure_index' ? BEFORE_045.index : BEFORE_045.groups;
    await db.raw(`ALTER TABLE "${table}" RENAME TO "${renamed}"`);
    for (const index of OLD_INDEXES[table]!) await db.raw(`ALTER INDEX IF EXISTS "${index}" RENAME TO "${index.replace(table, renamed)}"`);
  }
  await db.raw(GROUPS_TABLE);
  await db.raw(`CREATE TABLE audit_disclosure_index (
    month varchar(32) COLLATE "C" NOT NULL,
    org_id uuid NOT NULL,
    resident_id uuid NOT NULL,
    text_key varchar(64) NOT NULL,
    PRIMARY KEY (org_id, resident_id, month, text_key)
  ) PARTITION BY RANGE (month)`);
  // The audit rows still queued may be of the month before (a catch-up behind at a month's turn).
  const queued = rawRows<{ at: string | null }>(
    await db.raw('SELECT min(a.at) AS at FROM audit_disclosure_backlog b JOIN audit_events a ON a.seq = b.seq'),
  )[0]?.at;
  const now = Date.now();
  const since = queued ? Math.min(Date.parse(queued), now) : now;
  for (const table of ['audit_disclosure_groups', 'audit_disclosure_index']) {
    await db.raw(`CREATE TABLE "${defaultPartitionName(table)}" PARTITION OF "${table}" DEFAULT`);
    // The groups' line left HISTORY_TABLES with migration 050, which drops them.
    const spec = historyTable(table) ?? { table, column: 'month', interval: 'month' as const };
    await ensurePartitions(db, spec, now, Number.isNaN(since) ? now : since, table, true);
  }
}

/**
 * Back to migration 029's tables: the audit rows indexed since are queued again, so the
 * previous catch-up indexes them its way (the report reads the queue meanwhile): nothing of
 * the accounting is lost.
 */
export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  await db.raw(
    `INSERT INTO audit_disclosure_backlog (seq)
     SELECT DISTINCT s.value::bigint FROM audit_disclosure_groups g CROSS JOIN LATERAL jsonb_array_elements_text(g.seqs::jsonb) s(value)
     ON CONFLICT DO NOTHING`,
  );
  await db.raw('DROP TABLE audit_disclosure_index');
  await db.raw('DROP TABLE audit_disclosure_groups');
  if (await hasIndexBefore045(db)) {
    for (const table of ['audit_disclosure_index', 'audit_disclosure_groups'] as const) {
      const renamed = table === 'audit_disclosure_index' ? BEFORE_045.index : BEFORE_045.groups;
      await db.raw(`ALTER TABLE "${renamed}" RENAME TO "${table}"`);
      for (const index of OLD_INDEXES[table]!) await db.raw(`ALTER INDEX IF EXISTS "${index.replace(table, renamed)}" RENAME TO "${index}"`);
    }
    return;
  }
  await db.schema.createTable('audit_disclosure_index', (t) => {
    t.uuid('org_id').notNullable();
    t.uuid('resident_id').notNullable();
    t.bigInteger('first_seq').notNullable();
    t.bigInteger('last_seq').notNullable();
    t.text('seqs').notNullable();
    t.primary(['org_id', 'resident_id', 'first_seq']);
  });
  await db.raw('CREATE INDEX audit_disclosure_index_last_seq ON audit_disclosure_index (last_seq)');
  await db.schema.createTable('audit_disclosure_groups', (t) => {
    t.bigInteger('first_seq').primary();
    t.bigInteger('last_seq').notNullable();
    t.text('seqs').notNullable();
  });
  await db.raw('CREATE INDEX audit_disclosure_groups_last_seq ON audit_disclosure_groups (last_seq)');
}
