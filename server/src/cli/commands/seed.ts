import type { Knex } from 'knex';
import { createClient } from '../../auth/clients.js';
import { INGEST_SCOPE, PARTNER_SCOPES } from '../../tenancy/scopes.js';
import { createFacility, createOrganization, findOrganization } from '../../organizations/organizations.js';
import { seedFacility, type SeedCounts } from '../../seed/synthetic-data.js';
import { positiveInteger, uuidOption, UsageError, type CliContext, type Command } from '../command.js';
import { analyzeAfterBulkLoad } from '../../ingest/statistics-after-bulk-load.js';

function progressBar(cli: CliContext) {
  return (done: number, total: number) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    cli.progress(`\rseeding [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} residents`);
    if (done === total) cli.progress('\n');
  };
}

async function seedDemo(db: Knex, cli: CliContext, residents: number, emitEvents: boolean) {
  const org = await createOrganization(db, 'Demo Care Group');
  const facilities = [await createFacility(db, org.id, 'Maple Grove Nursing Home'), await createFacility(db, org.id, 'Riverside Assisted Living')];
  const seeded: Record<string, SeedCounts> = {};
  for (const facility of facilities) {
    seeded[facility.id] = await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents, emitEvents, onProgress: progressBar(cli) });
  }
  await analyzeAfterBulkLoad(db);
  const client = await createClient(db, { orgId: org.id, facilityIds: [facilities[0]!.id], scopes: [...PARTNER_SCOPES], name: 'Demo partner' });
  // The demo's system of record: writes through /api/v1/ingest to both facilities.
  const source = await createClient(db, { orgId: org.id, facilityIds: facilities.map((f) => f.id), scopes: [INGEST_SCOPE], name: 'Demo EHR', kind: 'ingest' });
  return { organization: org, facilities, client, source, seeded };
}

export const seed: Command = {
  name: 'seed',
  summary: 'Fill a facility with realistic synthetic residents (written through ingestion; --events queues their events), or create a whole demo tenant.',
  usage: 'seed --org ORG --facility FAC --residents N [--vital-rounds N] [--random-seed N] [--events] [--json]\n       seed --demo [--residents N] [--events] [--json]',
  options: {
    org: { type: 'string' },
    facility: { type: 'string' },
    residents: { type: 'string' },
    'vital-rounds': { type: 'string' },
    'random-seed': { type: 'string' },
    demo: { type: 'boolean' },
    events: { type: 'boolean' },
  },
  async run(args, cli) {
    const emitEvents = args.values.events === true;
    if (args.values.demo) return seedDemo(await cli.db(), cli, positiveInteger(args, 'residents', 25), emitEvents);
    // Check every argument before touching the database.
    const orgId = uuidOption(args, 'org');
    const facilityId = uuidOption(args, 'facility');
    const residents = positiveInteger(args, 'residents');
    const vitalRounds = positiveInteger(args, 'vital-rounds', 2);
    const randomSeed = args.values['random-seed'] === undefined ? undefined : positiveInteger(args, 'random-seed');
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    const facility = await db('facilities').where({ id: facilityId, org_id: orgId }).first();
    if (!facility) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    const seeded = await seedFacility(db, {
      orgId,
      facilityId,
      residents,
      vitalRounds,
      randomSeed,
      emitEvents,
      onProgress: progressBar(cli),
    });
    await analyzeAfterBulkLoad(db);
    return seeded;
  },
};
