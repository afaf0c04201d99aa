// The name index: normalised for case and accents, written by ingestion with each resident,
// and rebuilt from the residents by migration 015 for rows written before it.
import { expect } from 'chai';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { normalizeText } from '../../src/db/search-strings.js';
import * as searchIndex from '../../src/db/migrations/015_search_index.js';

describe('the name index (search_strings)', function () {
  this.timeout(60_000);
  let service: TestService;
  after(async () => service?.close());

  it('normalises case and accents', () => {
    expect(normalizeText('Núñez')).to.equal('nunez');
    expect(normalizeText('ÇELİK')).to.equal('celik');
    expect(normalizeText('Zoë-Ånne')).to.equal('zoe-anne');
  });

  it('holds the family and given names of every resident, and migration 015 backfills the same rows', async () => {
    service = await startTestService();
    const db = service.running.app.db;
    const orgId = (await service.seed.org()).id;
    const facilityId = (await service.seed.facility(orgId)).id;
    await service.seed.data({ orgId, facilityId, residents: 30, vitalRounds: 0 });
    const snapshot = async () => (await db('search_strings').orderBy(['resource_id', 'param', 'value']).select('org_id', 'resource_type', 'resource_id', 'param', 'value', 'norm')) as unknown[];
    const written = await snapshot();
    const residents = (await db('residents').select('given_names')) as Array<{ given_names: string }>;
    const names = residents.reduce((n, r) => n + 1 + new Set(JSON.parse(r.given_names) as string[]).size, 0);
    expect(written).to.have.length(names);
    await searchIndex.down(db);
    await searchIndex.up(db);
    expect(await snapshot()).to.deep.equal(written);
  });
});
