// PostgreSQL: the accounting of disclosures finds a text's audit rows through an index on the
// audit rows themselves, and keeps one small row per (organization, month, text) where it
// kept a group of seqs per catch-up pass (issue 43).
//
// WHY: since migration 045 a catch-up pass wrote, per text it found, a group row listing the
// seqs of that text's audit rows. A partner polling a page every few seconds is in a pass
// once, so at scale each audit row had a group of its own: 374 bytes on disk an audit row
// (heap and primary key) beside the audit row's 550, 18 GB of 47 at 5x10^7 rows, and the
// larger part of a month's drop (docs/benchmarks.md, section 13). Now:
// - audit_events has the index `(org_id, text key) WHERE it disclosed anyone`
//   (db/disclosure-text-key.ts): every audit row of one text in one month's partition is one
//   index probe away, and PostgreSQL's B-tree keeps a key repeated request after request once,
//   with a list of row addresses (deduplication, PostgreSQL 13+): a few bytes an audit row.
// - audit_disclosure_texts: one row per (organization, month, text) already indexed, so a
//   pass reads the residents of a text only the first time in a month (what the groups told
//   before), partitioned by month and dropped with the month as the index is.
// - audit_disclosure_groups goes: the report reads the resident's (month, text) index rows,
//   then that text's audit rows through the new index (audit/disclosures.ts).
// - The trigger queues for the catch-up only the audit rows whose text is not yet indexed in
//   their month: a row of a text indexed this month is in the report already (its text's
//   residents have their index rows, written with the text's row in one transaction), so a
//   polled page's requests no longer go through the queue at all (each had been a queue row
//   written, then locked, read and deleted by the catch-up: a sixth of a polled coverage
//   list's CPU with its backends, by paired A/B, 2026-11-29). A text being indexed by a
//   catch-up not yet committed is not seen: the row is queued, and that batch's successor
//   finds its text indexed and only dequeues it.
// The index is built without holding the audit trail's writers (db/online-index.ts): each
// partition's CONCURRENTLY, which cannot run in a transaction, hence this migration's config.
// Partitions of up to INLINE_ROWS rows (a new database, a small site) are indexed here; larger
// ones by the service's partition keeper in the background (`ops partitions` shows them,
// `ops partitions --move` builds them now), so the upgrade does not wait hours for them.
// Until then the report reads those partitions' rows of the organization to find a text's.
// SQLite keeps its groups (a single site's history).
import type { Knex } from 'knex';
import { isPostgres, rawRows } from '../database.js';
import { historyTable } from '../history-tables.js';
import { defaultPartitionName, ensurePartitions, relationExists } from '../history-partitions.js';
import { buildIndexOnline } from '../online-index.js';
import { ONLINE_INDEXES } from '../online-indexes.js';
import { DISCLOSURE_TEXT_INDEX, disclosesAnyone, disclosureTextKey, monthEndOf, monthOf } from '../disclosure-text-key.js';
import { INLINE_ROWS } from './039_history_partitions.js';
import { QUEUE_WITH_INSTANT } from './049_disclosure_backlog_at.js';
import { GROUPS_TABLE } from './045_disclosure_partitions.js';

export const config = { transaction: false };

const TEXTS = 'audit_disclosure_texts';
const GROUPS = 'audit_disclosure_groups';

/** The statement trigger's function (migration 031's trigger): only rows of a text new in its month. */
const QUEUE_NEW_TEXTS = `CREATE OR REPLACE FUNCTION queue_audit_disclosures_of_statement() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq, at)
    SELECT r.seq, r.at FROM audit_rows_inserted r
    WHERE ${disclosesAnyone('r')}
      AND NOT EXISTS (SELECT 1 FROM ${TEXTS} t WHERE t.org_id = r.org_id AND t.text_key = ${disclosureTextKey('r')} AND t.month = ${monthOf('r.at')});
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

/** The first instant of the oldest month in `table` (`month` column), or now. */
async function oldestMonth(db: Knex, table: string): Promise<number> {
  const month = rawRows<{ month: string | null }>(await db.raw(`SELECT min(month) AS month FROM "${table}"`))[0]?.month;
  const at = month ? Date.parse(month) : NaN;
  return Number.isNaN(at) ? Date.now() : Math.min(at, Date.now());
}

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  const groups = await relationExists(db, GROUPS);
  if (!(await relationExists(db, TEXTS))) {
    await db.raw(`CREATE TABLE ${TEXTS} (
      month varchar(32) COLLATE "C" NOT NULL,
      org_id uuid NOT NULL,
      text_key varchar(64) COLLATE "C" NOT NULL,
      PRIMARY KEY (org_id, text_key, month)
    ) PARTITION BY RANGE (month)`);
    await db.raw(`CREATE TABLE "${defaultPartitionName(TEXTS)}" PARTITION OF ${TEXTS} DEFAULT`);
  }
  await ensurePartitions(db, historyTable(TEXTS)!, Date.now(), groups ? await oldestMonth(db, GROUPS) : Date.now());
  if (groups) {
    // The texts the groups say were indexed, month by month: their residents' index rows exist.
    await db.raw(`INSERT INTO ${TEXTS} (month, org_id, text_key) SELECT DISTINCT month, org_id, text_key FROM ${GROUPS} ON CONFLICT DO NOTHING`);
  }
  // On audit_events, and on its partitioned twin where a move to partitions is still copying
  // (migration 039; the twin takes the table's name at the swap, its index too).
  for (const index of ONLINE_INDEXES) {
    if (await relationExists(db, index.table)) await buildIndexOnline(db, index, { upToRows: INLINE_ROWS });
  }
  await db.raw(QUEUE_NEW_TEXTS);
  if (groups) await db.raw(`DROP TABLE ${GROUPS}`);
}

/**
 * Back to migration 045's groups: the audit rows of every indexed text are queued again, so
 * 045's catch-up groups them its way (the report reads the queue meanwhile, and their
 * residents' index rows are kept): nothing of the accounting is lost.
 */
export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  await db.raw(GROUPS_TABLE);
  await db.raw(`CREATE TABLE IF NOT EXISTS "${defaultPartitionName(GROUPS)}" PARTITION OF ${GROUPS} DEFAULT`);
  await ensurePartitions(db, { table: GROUPS, column: 'month', interval: 'month' }, Date.now(), await oldestMonth(db, TEXTS));
  await db.raw(
    `INSERT INTO audit_disclosure_backlog (seq, at)
     SELECT a.seq, a.at FROM ${TEXTS} t CROSS JOIN LATERAL (
       SELECT e.seq, e.at FROM audit_events e
       WHERE e.org_id = t.org_id AND ${disclosureTextKey('e')} = t.text_key AND ${disclosesAnyone('e')}
         AND e.at >= t.month AND e.at < ${monthEndOf('t.month')}
     ) a
     ON CONFLICT DO NOTHING`,
  );
  await db.raw(QUEUE_WITH_INSTANT);
  await db.raw(`DROP TABLE ${TEXTS}`);
  await db.raw(`DROP INDEX IF EXISTS ${DISCLOSURE_TEXT_INDEX}`);
  await db.raw(`DROP INDEX IF EXISTS ${DISCLOSURE_TEXT_INDEX}_twin`);
}
