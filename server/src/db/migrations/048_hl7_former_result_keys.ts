// Which organizations hold HL7 results stored with the match keys of releases before
// 2026-11-29 (one digest a result, hl7/hl7-reading.ts derivedValue), set once, here.
//
// WHY: a result's key now starts with its order's digest (groupedDerivedValue), so a message's
// results are written side by side in the identifier indexes. A corrected result must still
// find a result stored with the old key, so the HL7 applier also looks that key up
// (`match.formerly`, ingest/change-set.ts); but those keys are digests spread over the index,
// ten random page reads an ORU^R01, for keys that cannot exist where no result was stored
// before this migration. Only organizations flagged here look them up. Nothing else sets the
// flag: no release from this one on writes an old key.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('organizations', (t) => t.boolean('hl7_former_result_keys').notNullable().defaultTo(false));
  await db('organizations')
    .update({ hl7_former_result_keys: true })
    .whereExists(
      db('resource_identifiers as i')
        .select(db.raw('1'))
        .whereRaw('i.org_id = organizations.id')
        .andWhere('i.resource_type', 'Observation')
        .andWhere('i.system', 'like', 'urn:ofctx:hl7v2:observation:%'),
    );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('organizations', (t) => t.dropColumn('hl7_former_result_keys'));
}
