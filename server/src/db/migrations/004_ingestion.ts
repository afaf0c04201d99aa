// Ingestion: what the system of record's writes need beside the four partner tables.
// - clients.kind: `partner` (reads, webhooks) or `ingest` (writes, `ingest.write` only). The
//   two never mix (auth/clients.ts enforces it when a credential is created).
// - conditions and medication_requests: kept as far as their events and the audit trail need;
//   partners do not read them.
// - resource_identifiers: every business identifier of every ingested row, organization-wide,
//   so a conditional update (`Patient?identifier=SYSTEM|VALUE`) finds its row in one indexed
//   read (by value; the type and system are checked on the few rows found). Not unique: masked values (`XXX-XX-1234`) repeat; a match of two rows is a conflict.
// - ingest_clock: per organization, the last `last_updated` assigned (apply-change-set.ts says
//   why it must never go backwards).
// - ingest_writes: the audit trail of every ingest write (who, which id, created or updated).
import type { Knex } from 'knex';

function clinicalTable(t: Knex.CreateTableBuilder): void {
  t.increments('seq').primary();
  t.uuid('id').notNullable().unique();
  t.uuid('org_id').notNullable().references('id').inTable('organizations');
  t.uuid('facility_id').notNullable().references('id').inTable('facilities');
  t.uuid('resident_id').notNullable().references('id').inTable('residents');
  t.string('code_system', 200).notNullable();
  t.string('code', 64).notNullable();
  t.string('display', 200).notNullable();
  t.integer('version_id').notNullable();
  t.string('last_updated', 32).notNullable();
  t.string('created_at', 32).notNullable();
  t.index(['facility_id', 'last_updated', 'id']);
  t.index(['resident_id']);
}

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('clients', (t) => {
    t.string('kind', 16).notNullable().defaultTo('partner');
  });
  await db.schema.createTable('conditions', (t) => {
    clinicalTable(t);
    t.string('clinical_status', 32).nullable();
    t.string('onset', 32).nullable();
  });
  await db.schema.createTable('medication_requests', (t) => {
    clinicalTable(t);
    t.string('status', 32).notNullable();
    t.string('intent', 32).notNullable();
    t.string('authored_on', 32).nullable();
  });
  await db.schema.createTable('resource_identifiers', (t) => {
    t.uuid('org_id').notNullable();
    t.string('resource_type', 32).notNullable();
    t.string('system', 300).notNullable();
    t.string('value', 300).notNullable();
    t.uuid('resource_id').notNullable();
    t.index(['org_id', 'value'], 'resource_identifiers_lookup');
    t.index(['resource_id']);
  });
  await db.schema.createTable('ingest_clock', (t) => {
    t.uuid('org_id').primary();
    t.string('last_updated', 32).notNullable();
  });
  await db.schema.createTable('ingest_writes', (t) => {
    t.increments('seq').primary();
    t.string('at', 32).notNullable();
    t.string('actor', 100).notNullable();
    t.string('request_id', 64).nullable();
    t.uuid('org_id').notNullable();
    t.uuid('facility_id').notNullable();
    t.string('resource_type', 32).notNullable();
    t.uuid('resource_id').notNullable();
    // created | updated
    t.string('outcome', 16).notNullable();
    t.integer('version_id').notNullable();
    t.index(['org_id', 'seq']);
    t.index(['resource_id']);
  });
  // Residents written before ingestion existed become findable by their identifiers.
  let after = 0;
  for (;;) {
    const rows = (await db('residents').where('seq', '>', after).orderBy('seq').limit(1000).select('seq', 'id', 'org_id', 'identifiers')) as Array<{ seq: number; id: string; org_id: string; identifiers: string }>;
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.seq;
    const index = rows.flatMap((row) =>
      (JSON.parse(row.identifiers) as Array<{ system: string; value: string }>).map((identifier) => ({
        org_id: row.org_id,
        resource_type: 'Patient',
        system: identifier.system,
        value: identifier.value,
        resource_id: row.id,
      })),
    );
    for (let i = 0; i < index.length; i += 200) await db('resource_identifiers').insert(index.slice(i, i + 200));
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['ingest_writes', 'ingest_clock', 'resource_identifiers', 'medication_requests', 'conditions']) {
    await db.schema.dropTableIfExists(table);
  }
  await db.schema.alterTable('clients', (t) => {
    t.dropColumn('kind');
  });
}
