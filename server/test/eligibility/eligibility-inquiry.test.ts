// What a 270 is built from: the Coverage with its resident, facility and the organization's
// clearinghouse connection for its payer, read in one statement (readInquirySubject); or why it
// cannot be asked.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { byMrn, coverage, MRN, patient } from '../../../test/support/fhir-resources.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { createFacility, createOrganization, setFacilityNpi } from '../../src/organizations/organizations.js';
import { removeConnection, setConnection, type ConnectionSettings } from '../../src/eligibility/clearinghouse-connections.js';
import { readInquirySubject } from '../../src/eligibility/eligibility-inquiry.js';
import { systemResolver } from '../../src/webhooks/ssrf-guard.js';
import { TEST_ENCRYPTION_KEY } from '../webhooks/support/webhook-service.js';

describe('the subject of an eligibility inquiry', function () {
  this.timeout(30_000);
  let db: Knex;
  freshKnexForSuite(async (opened) => {
    db = opened;
    await migrateToLatest(db);
  });
  const cipher = new SigningSecretCipher(Buffer.from(TEST_ENCRYPTION_KEY, 'base64'));
  const policy = { allowPrivateTargets: true, resolve: systemResolver };
  const settings = (orgId: string, senderId: string, payers: string[] | null): ConnectionSettings => ({ orgId, url: 'http://127.0.0.1:9/core', protocol: 'soap', username: 'u', password: 'p', senderId, receiverId: 'CH', payers, concurrency: 2, usage: 'P' });

  async function coverageOf(orgId: string, facilityId: string, mrn: string, payerId: string): Promise<string> {
    const result = await applyChangeSet(db, {
      orgId,
      facilityId,
      mode: 'batch',
      actor: 'ehr',
      emitEvents: false,
      changes: [
        { resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: 'p' },
        { resource: coverage(byMrn(mrn), `COV-${mrn}`, { payor: [{ identifier: { value: payerId }, display: 'Payer' }], subscriberId: `MEMBER-${mrn}` }), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: `COV-${mrn}` } }, at: 'c' },
      ],
    });
    return (result.outcomes[1] as { id: string }).id;
  }

  it('routes the payer to the connection naming it, else to the default, among the organization\'s own connections only', async () => {
    const orgId = (await createOrganization(db, 'Inquiry Org')).id;
    const other = (await createOrganization(db, 'Other Org')).id;
    const facilityId = (await createFacility(db, orgId, 'Inquiry Home')).id;
    await setFacilityNpi(db, facilityId, '1245319599');
    const named = await coverageOf(orgId, facilityId, 'INQ-1', 'mcd-77');
    const others = await coverageOf(orgId, facilityId, 'INQ-2', 'CMS');
    expect(await readInquirySubject(db, named)).to.deep.equal({ notCheckable: `no clearinghouse connection of the organization serves payer mcd-77: ops clearinghouse set --org ${orgId} ... (without --payers for the default)`, facilityId, coverageStatus: 'active' });

    // Another organization's connection for the payer is never this one's.
    await setConnection(db, cipher, policy, settings(other, 'OTHERSENDER', ['MCD-77']));
    const fallback = (await setConnection(db, cipher, policy, settings(orgId, 'DEFAULTSENDER', null))).connection;
    const specific = (await setConnection(db, cipher, policy, settings(orgId, 'MCDSENDER', ['MCD-77', 'BCBS']))).connection;
    const toNamed = await readInquirySubject(db, named);
    const toDefault = await readInquirySubject(db, others);
    if (!('subject' in toNamed) || !('subject' in toDefault)) throw new Error('both Coverages can be asked about');
    expect(toNamed.subject.connection).to.deep.include({ id: specific.id, sender_id: 'MCDSENDER', payers: ['BCBS', 'MCD-77'], failures: 0, paused_until: null });
    expect(toNamed.subject.connection.password_encrypted).to.be.a('string');
    expect(cipher.decrypt(toNamed.subject.connection.password_encrypted, specific.id)).to.equal('p');
    expect(toNamed.subject).to.deep.include({ coverageId: named, orgId, facilityId, coverageStatus: 'active', payer: { name: 'Payer', id: 'mcd-77' }, provider: { name: 'Inquiry Home', npi: '1245319599' } });
    expect(toNamed.subject.subscriber).to.deep.include({ memberId: 'MEMBER-INQ-1' });
    expect(toDefault.subject.connection).to.deep.include({ id: fallback.id, sender_id: 'DEFAULTSENDER', payers: null });

    await removeConnection(db, fallback.id);
    expect(await readInquirySubject(db, others)).to.have.property('notCheckable').that.matches(/no clearinghouse connection of the organization serves payer CMS/);
  });

  it('says what to fix when the facility has no NPI, and that a Coverage no longer there is gone', async () => {
    const orgId = (await createOrganization(db, 'No NPI Org')).id;
    const facilityId = (await createFacility(db, orgId, 'No NPI Home')).id;
    await setConnection(db, cipher, policy, settings(orgId, 'NONPISENDER', null));
    const id = await coverageOf(orgId, facilityId, 'INQ-3', 'CMS');
    expect(await readInquirySubject(db, id)).to.deep.equal({ notCheckable: `the facility has no NPI, so it cannot ask: ops facility update ${facilityId} --npi NPI`, facilityId, coverageStatus: 'active' });
    expect(await readInquirySubject(db, '00000000-0000-4000-8000-00000000dead')).to.deep.equal({ gone: true });
  });
});
