// New records' ids (ingest/change-chunk.ts): a resident's is random, so it tells nobody when
// the resident arrived; every other record's is time-ordered, so a feed's new rows land on the
// newest pages of the indexes on ids.
import { expect } from 'chai';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { byMrn, coverage, observation, patient } from '../../../test/support/fhir-resources.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { ResourceChange } from '../../src/ingest/change-set.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';

const upsert = (resource: ResourceChange['resource']): ResourceChange => ({ resource, match: { identifier: (resource.identifier as Array<{ system: string; value: string }>)[0]! }, at: 'entry' });
const versionOf = (id: string) => id[14];
/** The creation millisecond a version 7 id carries. */
const millisecondOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('the ids of new records', () => {
  const knex = freshKnexForSuite(async (db) => void (await migrateToLatest(db)));

  it('are random for residents and time-ordered for their records, in the order they were created', async () => {
    const db = knex();
    const orgId = (await createOrganization(db, 'Ids')).id;
    const facilityId = (await createFacility(db, orgId, 'Ids House')).id;
    const before = Date.now();
    const apply = (changes: ResourceChange[]) => applyChangeSet(db, { orgId, facilityId, mode: 'batch', actor: 'test', emitEvents: false, changes });
    const first = await apply([upsert(patient('IDS-1')), upsert(coverage(byMrn('IDS-1'), 'IDS-C')), ...['A', 'B', 'C'].map((key) => upsert(observation(byMrn('IDS-1'), `IDS-O-${key}`)))]);
    const second = await apply([upsert(observation(byMrn('IDS-1'), 'IDS-O-D'))]);
    const after = Date.now();
    const ids = [...first.outcomes, ...second.outcomes].map((o) => (o.outcome === 'created' ? o.id : ''));
    expect(ids.every((id) => id !== '')).to.equal(true);
    const [residentId, ...recordIds] = ids as [string, ...string[]];
    expect(versionOf(residentId)).to.equal('4');
    for (const id of recordIds) {
      expect(versionOf(id)).to.equal('7');
      expect(millisecondOf(id)).to.be.within(before, after);
    }
    // Records created later never get a smaller id than earlier ones' millisecond allows.
    expect(millisecondOf(recordIds.at(-1)!)).to.be.at.least(millisecondOf(recordIds[0]!));
    expect(Number((await db('observations').where({ org_id: orgId }).count({ n: '*' }).first())!.n)).to.equal(4);
  });
});
