// HL7 v2 and X12 feeds.
// - facilities.hl7_code: the code an ADT feed names the facility by (PV1-3.4, else MSH-4),
//   set by the operator; unique across the service, so a message finds one facility.
// - hl7_applied_messages: the MSH-10 control ids already applied, per organization and sending
//   application, written in the same transaction as the message's changes, so a re-sent
//   message (an MLLP sender that missed our ACK) is acknowledged and applied no second time.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('facilities', (t) => {
    t.string('hl7_code', 64).nullable().unique('facilities_hl7_code_unique');
  });
  await db.schema.createTable('hl7_applied_messages', (t) => {
    t.uuid('org_id').notNullable();
    t.string('sending_application', 227).notNullable();
    t.string('control_id', 199).notNullable();
    t.string('applied_at', 32).notNullable();
    t.primary(['org_id', 'sending_application', 'control_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('hl7_applied_messages');
  await db.schema.alterTable('facilities', (t) => {
    t.dropUnique(['hl7_code'], 'facilities_hl7_code_unique');
    t.dropColumn('hl7_code');
  });
}
