// The first `category` coding of Condition, ServiceRequest and MedicationRequest (issue 27:
// US Core searches Condition by category; R4 defines `category` on the other two), kept as
// the (system, code, display) columns the R4 view renders and the search compares. Rows
// written before this migration did not keep the category the sender gave: they have none.
import type { Knex } from 'knex';

const TABLES = ['conditions', 'service_requests', 'medication_requests'];

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.string('category_system', 200).nullable();
      t.string('category_code', 64).nullable();
      t.string('category_display', 200).nullable();
      t.index(['facility_id', 'category_code'], `${table}_category`);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex([], `${table}_category`);
      t.dropColumn('category_display');
      t.dropColumn('category_code');
      t.dropColumn('category_system');
    });
  }
}
