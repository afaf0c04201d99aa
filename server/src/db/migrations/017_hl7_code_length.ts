// facilities.hl7_code holds what senders write in MSH-4 / PV1-3.4: up to 227 characters (the
// HL7 HD type's length; organizations.ts HL7_CODE_MAX_LENGTH), spaces and punctuation
// included, instead of 64. SQLite does not enforce a varchar's length, so only PostgreSQL's
// column changes; the unique index stays as it is.
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';

export async function up(db: Knex): Promise<void> {
  if (isPostgres(db)) await db.raw('ALTER TABLE facilities ALTER COLUMN hl7_code TYPE varchar(227)');
}

export async function down(db: Knex): Promise<void> {
  // Fails on PostgreSQL while a code longer than 64 characters is stored: clear or shorten it first.
  if (isPostgres(db)) await db.raw('ALTER TABLE facilities ALTER COLUMN hl7_code TYPE varchar(64)');
}
