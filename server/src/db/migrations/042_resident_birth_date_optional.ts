// A resident may be recorded without a birth date (issue 41, senders as they are): a
// reference lab strips PHI and writes PID-7 as the placeholder `DOB`, and a FHIR Patient may
// have no birthDate (0..1 in R4 and US Core). The result is kept, the resident recorded with
// `birth_date` null, and the next message with a readable date fills it in.
// SQLite cannot drop NOT NULL in place: knex rebuilds the table, which drops its triggers (the
// facility resource counters), so they are read before and written again after.
import type { Knex } from 'knex';
import { isPostgres, rawRows } from '../database.js';

async function alterBirthDate(db: Knex, nullable: boolean): Promise<void> {
  if (isPostgres(db)) {
    await db.raw(`alter table residents alter column birth_date ${nullable ? 'drop' : 'set'} not null`);
    return;
  }
  const triggers = rawRows<{ sql: string }>(await db.raw(`select sql from sqlite_master where type = 'trigger' and tbl_name = 'residents' order by name`));
  await db.schema.alterTable('residents', (t) => {
    const column = t.string('birth_date', 10);
    (nullable ? column.nullable() : column.notNullable()).alter();
  });
  for (const trigger of triggers) await db.raw(trigger.sql);
}

export async function up(db: Knex): Promise<void> {
  await alterBirthDate(db, true);
}

export async function down(db: Knex): Promise<void> {
  const unknown = await db('residents').whereNull('birth_date').count({ n: '*' }).first();
  if (Number(unknown?.n ?? 0) > 0) throw new Error(`${String(unknown?.n)} residents have no birth date: record theirs before migrating down (a date cannot be made up)`);
  await alterBirthDate(db, false);
}
