// PostgreSQL: a facility's row count (facility_resource_counts.total, resource-counters.ts)
// moves once per INSERT statement, not once per row. The row-level trigger upserted the
// facility's counter row for every row inserted: an ORU^R01's ten Observations updated the
// same counter row ten times in the message's one insert statement, each a new row version
// under its lock (0.14 of that statement's 1.0 ms, 2026-11-28). A statement-level trigger
// reads the rows the statement inserted (its transition table) and adds each facility's
// count once. Deletes keep the row-level trigger (rare, and each also moves the layout).
// SQLite has no statement-level triggers: its counters stay per row (in-process, one page).
import type { Knex } from 'knex';
import { COUNTED_TABLES } from './resource-counters.js';

const INSERTED_FUNCTION = `CREATE OR REPLACE FUNCTION count_facility_resources_inserted() RETURNS trigger AS $$
BEGIN
  INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version)
  SELECT TG_TABLE_NAME, facility_id, count(*), 0 FROM inserted_rows GROUP BY facility_id ORDER BY facility_id
  ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + excluded.total;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

export async function up(db: Knex): Promise<void> {
  if (db.client.config.client !== 'pg') return;
  await db.raw(INSERTED_FUNCTION);
  for (const table of COUNTED_TABLES) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_insert_delete ON ${table}`);
    // Facilities in one order (ORDER BY above): two statements counting the same facilities lock their rows alike.
    await db.raw(`CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION count_facility_resources_inserted()`);
    await db.raw(`CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`);
  }
}

export async function down(db: Knex): Promise<void> {
  if (db.client.config.client !== 'pg') return;
  for (const table of COUNTED_TABLES) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_insert ON ${table}`);
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_delete ON ${table}`);
    await db.raw(`CREATE TRIGGER ${table}_count_insert_delete AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`);
  }
  await db.raw('DROP FUNCTION IF EXISTS count_facility_resources_inserted()');
}
