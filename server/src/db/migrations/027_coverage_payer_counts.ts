// A payer-scoped credential's Coverage list (issue 23) without walking the facility:
// - coverage_payer_counts: Coverages per (facility, lower(payor_name), lower(payor_id)), kept
//   by triggers in the same transaction as every write (insert, delete, an update of the
//   facility or of either payer column), whoever writes, and backfilled here. A payer's total
//   is the sum of the few rows whose name or id key is one of its payers; each Coverage is
//   one row, so one matching both by name and by id counts once. A NULL payor_id is kept as
//   '' (payers are never empty: `ops client` refuses it, and the reader checks it).
// - coverage_facility_payor_name / _payor_id: (facility_id, lower(column), seq), so the page
//   takes each payer key's first rows in list order by seeking, and merges them
//   (resources/payer-pages.ts), instead of walking the facility's rows until its page is full.
// Migration 024's coverage_facility_payer (facility_id, lower(payor_name), lower(payor_id))
// stays: the filtered queries that still count or walk by the OR (a resident's Coverages,
// sync pages, R4 searches, exports, policies hiding more than payers) read it alone; without
// it SQLite reads every Coverage row of the facility instead.
import type { Knex } from 'knex';

const KEYS = {
  name: (row: string) => `lower(${row}.payor_name)`,
  id: (row: string) => `coalesce(lower(${row}.payor_id), '')`,
};

function sqliteTriggers(): string[] {
  const add = (row: string) =>
    `INSERT INTO coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total) VALUES (${row}.facility_id, ${KEYS.name(row)}, ${KEYS.id(row)}, 1)
     ON CONFLICT (facility_id, payor_name_key, payor_id_key) DO UPDATE SET total = total + 1;`;
  const remove = (row: string) =>
    `UPDATE coverage_payer_counts SET total = total - 1
     WHERE facility_id = ${row}.facility_id AND payor_name_key = ${KEYS.name(row)} AND payor_id_key = ${KEYS.id(row)};`;
  return [
    `CREATE TRIGGER coverage_payer_count_insert AFTER INSERT ON coverage BEGIN ${add('NEW')} END`,
    `CREATE TRIGGER coverage_payer_count_delete AFTER DELETE ON coverage BEGIN ${remove('OLD')} END`,
    `CREATE TRIGGER coverage_payer_count_update AFTER UPDATE OF facility_id, payor_name, payor_id ON coverage
     WHEN OLD.facility_id <> NEW.facility_id OR ${KEYS.name('OLD')} IS NOT ${KEYS.name('NEW')} OR ${KEYS.id('OLD')} <> ${KEYS.id('NEW')}
     BEGIN ${remove('OLD')} ${add('NEW')} END`,
  ];
}

const POSTGRES_FUNCTION = `CREATE OR REPLACE FUNCTION count_coverage_payers() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE coverage_payer_counts SET total = total - 1
    WHERE facility_id = OLD.facility_id AND payor_name_key = ${KEYS.name('OLD')} AND payor_id_key = ${KEYS.id('OLD')};
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total) VALUES (NEW.facility_id, ${KEYS.name('NEW')}, ${KEYS.id('NEW')}, 1)
    ON CONFLICT (facility_id, payor_name_key, payor_id_key) DO UPDATE SET total = coverage_payer_counts.total + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

const POSTGRES_TRIGGERS = [
  'CREATE TRIGGER coverage_payer_count_insert_delete AFTER INSERT OR DELETE ON coverage FOR EACH ROW EXECUTE FUNCTION count_coverage_payers()',
  `CREATE TRIGGER coverage_payer_count_update AFTER UPDATE OF facility_id, payor_name, payor_id ON coverage FOR EACH ROW
   WHEN (OLD.facility_id IS DISTINCT FROM NEW.facility_id OR ${KEYS.name('OLD')} IS DISTINCT FROM ${KEYS.name('NEW')} OR ${KEYS.id('OLD')} IS DISTINCT FROM ${KEYS.id('NEW')})
   EXECUTE FUNCTION count_coverage_payers()`,
];

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('coverage_payer_counts', (t) => {
    t.uuid('facility_id').notNullable();
    t.string('payor_name_key', 200).notNullable();
    t.string('payor_id_key', 200).notNullable();
    t.bigInteger('total').notNullable();
    t.primary(['facility_id', 'payor_name_key', 'payor_id_key']);
  });
  await db.raw(
    `insert into coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total)
     select facility_id, ${KEYS.name('coverage')}, ${KEYS.id('coverage')}, count(*) from coverage group by 1, 2, 3`,
  );
  const postgres = db.client.config.client === 'pg';
  if (postgres) await db.raw(POSTGRES_FUNCTION);
  for (const statement of postgres ? POSTGRES_TRIGGERS : sqliteTriggers()) await db.raw(statement);
  await db.raw('create index coverage_facility_payor_name on coverage (facility_id, lower(payor_name), seq)');
  await db.raw('create index coverage_facility_payor_id on coverage (facility_id, lower(payor_id), seq)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists coverage_facility_payor_id');
  await db.raw('drop index if exists coverage_facility_payor_name');
  const postgres = db.client.config.client === 'pg';
  if (postgres) {
    await db.raw('drop trigger if exists coverage_payer_count_insert_delete on coverage');
    await db.raw('drop trigger if exists coverage_payer_count_update on coverage');
    await db.raw('drop function if exists count_coverage_payers()');
  } else {
    for (const name of ['insert', 'delete', 'update']) await db.raw(`drop trigger if exists coverage_payer_count_${name}`);
  }
  await db.schema.dropTableIfExists('coverage_payer_counts');
}
