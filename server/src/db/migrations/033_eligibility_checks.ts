// Real-time eligibility (issue 40): ofctx asks the payer itself, an X12 270 over the CAQH CORE
// Connectivity Rule, and applies the 271 through the 271 road (server/src/eligibility/).
// - facilities.npi: the provider that asks (NM1*1P, qualifier XX). A facility without one is
//   not checked.
// - clearinghouse_connections: per organization, where and how the 270s go (URL, SOAP or
//   MIME, credentials with the password encrypted like signing secrets, sender and receiver
//   ids), which payer ids they serve (null: the organization's default), how many exchanges
//   at once, and the circuit breaker's state (consecutive failures, paused until).
// - x12_control_numbers: the last interchange control number per sender id (ISA13, GS06 and
//   ST02 are unique and increasing per sender).
// - eligibility_checks: one row per Coverage, its next ask. due_at is when it is due (null:
//   nothing scheduled); a worker takes it under a lease (a killed instance's check is taken
//   again when the lease runs out, never by two at once). Admission or a change of payer or
//   member id sets it due now, in the transaction that writes the Coverage; after an answer it
//   is due again ELIGIBILITY_RECHECK_DAYS later.
// - eligibility_exchanges: every ask and what came of it, for `ops eligibility log` (the raw
//   270 and 271 beside it, shown only with --raw: they hold PHI). Purged with the audit trail.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('facilities', (t) => {
    t.string('npi', 10).nullable();
  });
  await db.schema.createTable('clearinghouse_connections', (t) => {
    // seq: the order `ops keys rotate` walks encrypted columns in.
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.text('url').notNullable();
    /** soap or mime */
    t.string('protocol', 8).notNullable();
    t.string('username', 200).notNullable();
    t.text('password_encrypted').notNullable();
    t.string('sender_id', 15).notNullable();
    t.string('receiver_id', 15).notNullable();
    /** JSON array of payer ids this connection serves; null: every payer no other connection names. */
    t.text('payers').nullable();
    t.integer('concurrency').notNullable();
    /** ISA15: P (production) or T (test). */
    t.string('usage', 1).notNullable();
    t.integer('failures').notNullable().defaultTo(0);
    t.string('paused_until', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['org_id']);
  });
  await db.schema.createTable('x12_control_numbers', (t) => {
    t.string('sender_id', 15).primary();
    t.bigInteger('last_number').notNullable();
  });
  await db.schema.createTable('eligibility_checks', (t) => {
    // No foreign key: the row is written in the same statement batch as its Coverage.
    t.uuid('coverage_id').primary();
    t.uuid('org_id').notNullable();
    t.uuid('facility_id').notNullable();
    t.string('due_at', 32).nullable();
    /** Why the next ask is made: admission, change, recheck, operator. */
    t.string('trigger', 16).notNullable();
    /** When the ask now due was first requested (the queue's age). */
    t.string('requested_at', 32).nullable();
    /** Failed attempts of the ask now due (transport failures: retried with backoff). */
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('lease_owner', 64).nullable();
    t.string('lease_until', 32).nullable();
    t.string('last_checked_at', 32).nullable();
    t.string('last_outcome', 16).nullable();
    t.index(['facility_id', 'due_at']);
    t.index(['org_id']);
  });
  await db.schema.createTable('eligibility_exchanges', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable();
    t.uuid('facility_id').notNullable();
    t.uuid('coverage_id').notNullable();
    t.string('trigger', 16).notNullable();
    t.uuid('connection_id').nullable();
    t.string('started_at', 32).notNullable();
    t.string('finished_at', 32).notNullable();
    t.integer('duration_ms').notNullable();
    /** active, inactive, rejected, error, not_checkable */
    t.string('outcome', 16).notNullable();
    /** An error that is retried (timeout, connection, 5xx): the check stays queued. */
    t.boolean('retrying').notNullable();
    /** Coverage.status after the exchange. */
    t.string('coverage_status', 32).nullable();
    t.text('detail').notNullable();
    /** JSON: AAA codes, the 999's errors, the CORE error, the HTTP status or transport error class. */
    t.text('codes').nullable();
    t.string('payload_id', 64).nullable();
    t.string('control_number', 16).nullable();
    t.text('request_x12').nullable();
    t.text('response_x12').nullable();
    t.index(['org_id', 'seq']);
    t.index(['coverage_id', 'seq']);
    t.index(['finished_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('eligibility_exchanges');
  await db.schema.dropTableIfExists('eligibility_checks');
  await db.schema.dropTableIfExists('x12_control_numbers');
  await db.schema.dropTableIfExists('clearinghouse_connections');
  await db.schema.alterTable('facilities', (t) => {
    t.dropColumn('npi');
  });
}
