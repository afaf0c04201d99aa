// A change counter per facility and resource (facility_resource_counts.changes), so a list
// page kept by the service (http/rendered-pages.ts) is known unchanged from one row read
// instead of its page's rows. `total` moves with every insert and delete, `layout_version`
// with every delete and move (resource-counters.ts); an update in place (a new version of a
// resource, a new resident, a label) moved neither. Now every update of a resource row
// counts one change to its facility's row, by trigger in the writing transaction, whoever
// writes; so (total, layout_version, changes) differs after any write to the facility's rows.
import type { Knex } from 'knex';
import { COUNTED_TABLES } from './resource-counters.js';

const POSTGRES_FUNCTION = `CREATE OR REPLACE FUNCTION count_facility_resource_changes() RETURNS trigger AS $$
BEGIN
  UPDATE facility_resource_counts SET changes = changes + 1 WHERE resource = TG_TABLE_NAME AND facility_id = NEW.facility_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('facility_resource_counts', (t) => {
    t.bigInteger('changes').notNullable().defaultTo(0);
  });
  const postgres = db.client.config.client === 'pg';
  if (postgres) await db.raw(POSTGRES_FUNCTION);
  for (const table of COUNTED_TABLES) await createChangeTrigger(db, table);
}

/** The trigger counting `table`'s updates (tests drop and make it again). */
export async function createChangeTrigger(db: Knex, table: string): Promise<void> {
  await db.raw(
    db.client.config.client === 'pg'
      ? `CREATE TRIGGER ${table}_count_change AFTER UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resource_changes()`
      : `CREATE TRIGGER ${table}_count_change AFTER UPDATE ON ${table}
         BEGIN UPDATE facility_resource_counts SET changes = changes + 1 WHERE resource = '${table}' AND facility_id = NEW.facility_id; END`,
  );
}

export async function dropChangeTrigger(db: Knex, table: string): Promise<void> {
  await db.raw(db.client.config.client === 'pg' ? `drop trigger if exists ${table}_count_change on ${table}` : `drop trigger if exists ${table}_count_change`);
}

export async function down(db: Knex): Promise<void> {
  const postgres = db.client.config.client === 'pg';
  for (const table of COUNTED_TABLES) await dropChangeTrigger(db, table);
  if (postgres) await db.raw('drop function if exists count_facility_resource_changes()');
  // Not knex's dropColumn: on SQLite it copies the table, which its triggers name.
  await db.raw('alter table facility_resource_counts drop column changes');
}
