// Per facility and resource: the row count, and a layout version. Triggers keep both in the
// same transaction as every write, whoever writes:
// - `total` makes a list's total one primary-key read instead of a count over millions of rows;
// - `layout_version` changes whenever a row's position in a list can change: a delete, a move
//   between facilities, or (for lists filtered by resident) a row changing resident. Inserts
//   only append (seq grows), so they move nothing. The page-anchor cache keys on it.
import type { Knex } from 'knex';

export const COUNTED_TABLES = ['residents', 'coverage', 'observations', 'allergies'] as const;
const RESIDENT_TABLES = ['coverage', 'observations', 'allergies'] as const;

function sqliteTriggers(table: string): string[] {
  const add = (facility: string, relayout: boolean) =>
    `INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES ('${table}', ${facility}, 1, ${relayout ? 1 : 0})
     ON CONFLICT (resource, facility_id) DO UPDATE SET total = total + 1${relayout ? ', layout_version = layout_version + 1' : ''};`;
  const remove = (facility: string) =>
    `UPDATE facility_resource_counts SET total = total - 1, layout_version = layout_version + 1 WHERE resource = '${table}' AND facility_id = ${facility};`;
  const triggers = [
    `CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN ${add('NEW.facility_id', false)} END`,
    `CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN ${remove('OLD.facility_id')} END`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} WHEN OLD.facility_id <> NEW.facility_id
     BEGIN ${remove('OLD.facility_id')} ${add('NEW.facility_id', true)} END`,
  ];
  if ((RESIDENT_TABLES as readonly string[]).includes(table)) {
    triggers.push(
      `CREATE TRIGGER ${table}_relayout_resident AFTER UPDATE OF resident_id ON ${table} WHEN OLD.resident_id <> NEW.resident_id
       BEGIN UPDATE facility_resource_counts SET layout_version = layout_version + 1 WHERE resource = '${table}' AND facility_id = NEW.facility_id; END`,
    );
  }
  return triggers;
}

const POSTGRES_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION count_facility_resources() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE facility_resource_counts SET total = total - 1, layout_version = layout_version + 1
    WHERE resource = TG_TABLE_NAME AND facility_id = OLD.facility_id;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES (TG_TABLE_NAME, NEW.facility_id, 1, 0)
    ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES (TG_TABLE_NAME, NEW.facility_id, 1, 1)
    ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + 1, layout_version = facility_resource_counts.layout_version + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE FUNCTION relayout_facility_resources() RETURNS trigger AS $$
BEGIN
  UPDATE facility_resource_counts SET layout_version = layout_version + 1 WHERE resource = TG_TABLE_NAME AND facility_id = NEW.facility_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql`,
];

function postgresTriggers(table: string): string[] {
  const triggers = [
    `CREATE TRIGGER ${table}_count_insert_delete AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} FOR EACH ROW
     WHEN (OLD.facility_id IS DISTINCT FROM NEW.facility_id) EXECUTE FUNCTION count_facility_resources()`,
  ];
  if ((RESIDENT_TABLES as readonly string[]).includes(table)) {
    triggers.push(
      `CREATE TRIGGER ${table}_relayout_resident AFTER UPDATE OF resident_id ON ${table} FOR EACH ROW
       WHEN (OLD.resident_id IS DISTINCT FROM NEW.resident_id) EXECUTE FUNCTION relayout_facility_resources()`,
    );
  }
  return triggers;
}

export async function createResourceCounters(db: Knex): Promise<void> {
  await db.schema.createTable('facility_resource_counts', (t) => {
    t.string('resource', 32).notNullable();
    t.uuid('facility_id').notNullable();
    t.bigInteger('total').notNullable();
    t.bigInteger('layout_version').notNullable().defaultTo(0);
    t.primary(['resource', 'facility_id']);
  });
  const postgres = db.client.config.client === 'pg';
  if (postgres) for (const fn of POSTGRES_FUNCTIONS) await db.raw(fn);
  for (const table of COUNTED_TABLES) {
    for (const statement of postgres ? postgresTriggers(table) : sqliteTriggers(table)) await db.raw(statement);
  }
}

export async function dropResourceCounters(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('facility_resource_counts');
  if (db.client.config.client === 'pg') {
    await db.raw('DROP FUNCTION IF EXISTS count_facility_resources() CASCADE');
    await db.raw('DROP FUNCTION IF EXISTS relayout_facility_resources() CASCADE');
  }
}
