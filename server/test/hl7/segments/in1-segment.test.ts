// IN1 -> Coverage, what an X12 270 needs beside the payer and member id, after the v2-to-FHIR
// IG's IN1 map: plan type (IN1-15), plan (IN1-2) and group (IN1-8/9) classes, the insured's
// relationship (IN1-17, table 0063) and, for a dependent, the insured (IN1-16, -18, -43) as a
// contained RelatedPerson. An optional field that cannot be read is dropped with a warning,
// the Coverage kept; the same IN1 re-sent changes nothing.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { readMessage, applyHl7Text } from '../../../src/hl7/message-applier.js';
import { translateMessage, type Hl7Translation } from '../../../src/hl7/message-translator.js';
import { hl7Message, MRN_SYSTEM, pidOf, segment } from '../../../../test/support/adt-messages.js';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.js';
import { openDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../../src/organizations/organizations.js';

const PV1 = 'PV1|1|I|2W^201^A^MAPLE';
const BASE = { 1: '1', 2: 'MCRA^Medicare Advantage Gold', 3: 'PAYER-9', 4: 'Acme Health', 12: '20240101', 36: 'POL-7' };
const DEPENDENT = { ...BASE, 8: 'GRP-100', 9: 'Retirees of Maple', 15: 'HMO', 16: 'Okafor^Chidi^Emeka', 17: 'CHD', 18: '19380211', 43: 'M' };
const translate = (...in1: string[]): Hl7Translation => translateMessage(readMessage(hl7Message('ADT^A08^ADT_A01', 'UNIT-1', [pidOf('U-1'), PV1, ...in1])), '2026-01-15');
const coverageOf = (t: Hl7Translation) => t.records.map((r) => r.resource as Record<string, any>).find((r) => r.resourceType === 'Coverage')!;

describe('IN1 -> Coverage: what a 270 needs', () => {
  it('a dependent: plan type, group and plan classes, relationship child, the insured as a contained RelatedPerson', () => {
    const t = translate(segment('IN1', DEPENDENT));
    expect(t.warnings).to.deep.equal([]);
    const coverage = coverageOf(t);
    expect(coverage.type).to.deep.equal({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'HMO' }] });
    expect(coverage.class).to.deep.equal([
      { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group' }] }, value: 'GRP-100', name: 'Retirees of Maple' },
      { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: 'MCRA', name: 'Medicare Advantage Gold' },
    ]);
    expect(coverage.relationship).to.deep.equal({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship', code: 'child' }] });
    expect(coverage.subscriber).to.deep.equal({ reference: '#subscriber' });
    expect(coverage.contained).to.deep.equal([
      { resourceType: 'RelatedPerson', id: 'subscriber', patient: coverage.beneficiary, name: [{ family: 'Okafor', given: ['Chidi', 'Emeka'] }], birthDate: '1938-02-11', gender: 'male' },
    ]);
  });

  it('the insured is the patient (SEL): relationship self, the subscriber is the beneficiary, IN1-16/18/43 not copied', () => {
    const coverage = coverageOf(translate(segment('IN1', { ...DEPENDENT, 17: 'SEL' })));
    expect(coverage.relationship.coding[0].code).to.equal('self');
    expect(coverage.subscriber).to.deep.equal(coverage.beneficiary);
    expect(coverage).to.not.have.property('contained');
  });

  it('maps table 0063: SPO spouse, DOM common, NCH/SCH/FCH child, PAR parent, any other code other', () => {
    const codes: Record<string, string> = { SPO: 'spouse', DOM: 'common', NCH: 'child', SCH: 'child', FCH: 'child', PAR: 'parent', EME: 'other', GRP: 'other', OTH: 'other', par: 'parent' };
    for (const [v2, fhir] of Object.entries(codes)) expect(coverageOf(translate(segment('IN1', { ...DEPENDENT, 17: v2 }))).relationship.coding[0].code, v2).to.equal(fhir);
  });

  it('keeps the plan type text when the sender gives one (IN1-15 as CWE), and nothing of what IN1 leaves empty', () => {
    expect(coverageOf(translate(segment('IN1', { ...BASE, 15: 'MC^Medicaid' }))).type).to.deep.equal({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'MC', display: 'Medicaid' }], text: 'Medicaid' });
    const bare = coverageOf(translate(segment('IN1', { ...BASE, 2: '' })));
    for (const element of ['type', 'class', 'relationship', 'subscriber', 'contained']) expect(bare, element).to.not.have.property(element);
    // A dependent of whom IN1 says nothing: the relationship alone.
    const unnamed = coverageOf(translate(segment('IN1', { ...BASE, 17: 'SPO' })));
    expect(unnamed.relationship.coding[0].code).to.equal('spouse');
    expect(unnamed).to.not.have.property('subscriber');
  });

  it('drops an insured DOB that is no date, a sex not in table 0001, a group number too long, each with a warning naming the field; the Coverage is kept', () => {
    const t = translate(segment('IN1', { ...DEPENDENT, 8: 'G'.repeat(65), 18: '1938-02-11', 43: 'X' }));
    expect(t.warnings.map((w) => [w.where, w.location?.sequence, w.code])).to.deep.equal([
      ['IN1-8', 1, 'data_type_error'],
      ['IN1-18', 1, 'data_type_error'],
      ['IN1-43', 1, 'data_type_error'],
    ]);
    const coverage = coverageOf(t);
    expect(coverage.subscriberId).to.equal('POL-7');
    expect(coverage.class.map((c: { value: string }) => c.value)).to.deep.equal(['MCRA']);
    expect(coverage.contained[0]).to.deep.include({ name: [{ family: 'Okafor', given: ['Chidi', 'Emeka'] }] });
    expect(coverage.contained[0]).to.not.have.any.keys('birthDate', 'gender');
  });

  it('the same IN1 translates to the same Coverage, whatever the message', () => {
    const one = coverageOf(translate(segment('IN1', DEPENDENT)));
    const two = coverageOf(translateMessage(readMessage(hl7Message('ADT^A01^ADT_A01', 'UNIT-2', [pidOf('U-1'), PV1, segment('IN1', DEPENDENT)])), '2026-01-15'));
    expect(two).to.deep.equal(one);
  });

  describe('applied', function () {
    this.timeout(60_000);
    let database: TestDatabase;
    let db: Knex;
    let orgId: string;
    let seq = 0;

    before(async () => {
      database = await createTestDatabase();
      db = openDatabase(database.url);
      await migrateToLatest(db);
      orgId = (await createOrganization(db, 'IN1 details')).id;
      await setFacilityHl7Code(db, (await createFacility(db, orgId, 'Maple')).id, 'MAPLE');
    });
    after(async () => {
      await db?.destroy();
      await database?.drop();
    });

    const send = (event: string, mrn: string, in1: Record<number, string>) => applyHl7Text(db, hl7Message(`ADT^${event}^ADT_A01`, `IN1-${++seq}`, [`EVN|${event}|20260115083000`, pidOf(mrn), PV1, segment('IN1', in1)], { facility: 'MAPLE' }));
    const coverageRowOf = async (mrn: string) => {
      const resident = (await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id')).resource_id as string;
      return db('coverage').where({ resident_id: resident }).first();
    };

    it('keeps the details as the 032 columns, valid R4 on the way (AA, no warning); the same IN1 re-sent changes nothing', async () => {
      const first = await send('A01', 'IN1-DEP', DEPENDENT);
      expect(first.result).to.equal('applied');
      expect(first.ack.toString()).to.not.contain('ERR|');
      const row = await coverageRowOf('IN1-DEP');
      expect(row).to.include({ relationship: 'child', subscriber_birth_date: '1938-02-11', subscriber_gender: 'male', version_id: 1 });
      expect(JSON.parse(row.coverage_type)).to.deep.equal({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'HMO' }] });
      expect(JSON.parse(row.classes)).to.deep.equal([{ type: 'group', value: 'GRP-100', name: 'Retirees of Maple' }, { type: 'plan', value: 'MCRA', name: 'Medicare Advantage Gold' }]);
      expect(JSON.parse(row.subscriber_name)).to.deep.equal({ family: 'Okafor', given: ['Chidi', 'Emeka'] });
      const events = async () => Number((await db('webhook_events').where({ resident_id: row.resident_id, event_type: 'coverage.updated' }).count({ n: '*' }).first())!.n);
      const before = await events();

      expect((await send('A08', 'IN1-DEP', DEPENDENT)).result).to.equal('applied');
      expect(await coverageRowOf('IN1-DEP')).to.deep.equal(row);
      expect(await events()).to.equal(before);

      // A new group number is a new version and a coverage.updated.
      expect((await send('A08', 'IN1-DEP', { ...DEPENDENT, 8: 'GRP-200' })).result).to.equal('applied');
      const changed = await coverageRowOf('IN1-DEP');
      expect(changed.version_id).to.equal(2);
      expect(JSON.parse(changed.classes)[0].value).to.equal('GRP-200');
      expect(await events()).to.equal(before + 1);
    });

    it('a self-insured resident: relationship self and no subscriber columns', async () => {
      expect((await send('A01', 'IN1-SELF', { ...DEPENDENT, 17: 'SEL' })).result).to.equal('applied');
      expect(await coverageRowOf('IN1-SELF')).to.include({ relationship: 'self', subscriber_name: null, subscriber_birth_date: null, subscriber_gender: null });
    });
  });
});
