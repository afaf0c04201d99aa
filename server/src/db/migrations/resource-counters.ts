// Row counts per facility for the four resources, kept by triggers in the same transaction
// as every insert, delete or move, so a list's `total` is one primary-key read instead of
// a count over millions of rows. Triggers (not application code) keep it right whoever writes.
import type { Knex } from 'knex';

export const COUNTED_TABLES = ['residents', 'coverage', 'observations', 'allergies'] as const;

function sqliteTriggers(table: string): string[] {
  const add = (facility: string) =>
    `INSERT INTO facility_resource_counts (resource, facility_id, total) VALUES ('${table}', ${facility}, 1)
     ON CONFLICT (resource, facility_id) DO UPDATE SET total = total + 1;`;
  const remove = (facility: string) =>
    `UPDATE facility_resource_counts SET total = total - 1 WHERE resource = '${table}' AND facility_id = ${facility};`;
  return [
    `CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN ${add('NEW.facility_id')} END`,
    `CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN ${remove('OLD.facility_id')} END`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} WHEN OLD.facility_id <> NEW.facility_id
     BEGIN ${remove('OLD.facility_id')} ${add('NEW.facility_id')} END`,
  ];
}

const POSTGRES_FUNCTION = `
CREATE OR REPLACE FUNCTION count_facility_resources() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE facility_resource_counts SET total = total - 1 WHERE resource = TG_TABLE_NAME AND facility_id = OLD.facility_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO facility_resource_counts (resource, facility_id, total) VALUES (TG_TABLE_NAME, NEW.facility_id, 1)
    ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;

function postgresTriggers(table: string): string[] {
  return [
    `CREATE TRIGGER ${table}_count_insert_delete AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} FOR EACH ROW
     WHEN (OLD.facility_id IS DISTINCT FROM NEW.facility_id) EXECUTE FUNCTION count_facility_resources()`,
  ];
}

export async function createResourceCounters(db: Knex): Promise<void> {
  await db.schema.createTable('facility_resource_counts', (t) => {
    t.string('resource', 32).notNullable();
    t.uuid('facility_id').notNullable();
    t.bigInteger('total').notNullable();
    t.primary(['resource', 'facility_id']);
  });
  const postgres = db.client.config.client === 'pg';
  if (postgres) await db.raw(POSTGRES_FUNCTION);
  for (const table of COUNTED_TABLES) {
    for (const statement of postgres ? postgresTriggers(table) : sqliteTriggers(table)) await db.raw(statement);
  }
}

export async function dropResourceCounters(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('facility_resource_counts');
  if (db.client.config.client === 'pg') await db.raw('DROP FUNCTION IF EXISTS count_facility_resources() CASCADE');
}
