// FHIR R4 Coverage -> coverage row: what an X12 270 needs beside the payer and member id
// (type, class, relationship, subscriber) is kept as migration 032's columns, refused with an
// issue naming the element when it cannot be, and the row's elements map back to themselves.
import { expect } from 'chai';
import { coverageDetailElements, coverageMapping } from '../../../src/ingest/mapping/coverage.js';
import type { Columns } from '../../../src/ingest/mapping/resource-mapping.js';
import type { ChangeIssue, IngestResource } from '../../../src/ingest/change-set.js';
import { coverage } from '../../../../test/support/fhir-resources.js';

const BENEFICIARY = { reference: 'Patient?identifier=urn:oid:2.16.840.1.113883.19.5|MRN-1' };
const CLASS = 'http://terminology.hl7.org/CodeSystem/coverage-class';
const RELATIONSHIP = 'http://terminology.hl7.org/CodeSystem/subscriber-relationship';
const relationship = (code: string, system = RELATIONSHIP) => ({ coding: [{ system, code }] });
const klass = (type: string, value: string, name?: string) => ({ type: { coding: [{ system: CLASS, code: type }] }, value, ...(name ? { name } : {}) });
const dependent = {
  contained: [{ resourceType: 'RelatedPerson', id: 'sub', patient: BENEFICIARY, name: [{ use: 'official', family: 'Okafor', given: ['Chidi', 'Emeka'] }], birthDate: '1938-02-11', gender: 'male' }],
  subscriber: { reference: '#sub' },
  relationship: relationship('spouse'),
};

function columnsOf(overrides: Record<string, unknown>): Columns {
  const mapped = coverageMapping.toColumns(coverage(BENEFICIARY, 'COV-1', overrides) as IngestResource);
  if ('issue' in mapped) throw new Error(`refused: ${mapped.issue.diagnostics}`);
  return mapped.columns;
}

function issueOf(overrides: Record<string, unknown>): ChangeIssue {
  const mapped = coverageMapping.toColumns(coverage(BENEFICIARY, 'COV-1', overrides) as IngestResource);
  if (!('issue' in mapped)) throw new Error(`kept: ${JSON.stringify(mapped.columns)}`);
  return mapped.issue;
}

describe('the Coverage mapping: what a 270 needs', () => {
  it('keeps type, class (code, value, name), relationship and a contained subscriber as the 032 columns', () => {
    const columns = columnsOf({
      ...dependent,
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'SUBSIDIZ', display: 'subsidized health program' }], text: 'Medicaid' },
      class: [klass('group', 'GRP-100', 'Retirees'), klass('plan', 'PLAN-B')],
    });
    expect(columns).to.include({ relationship: 'spouse', subscriber_birth_date: '1938-02-11', subscriber_gender: 'male' });
    expect(JSON.parse(columns.coverage_type as string)).to.deep.equal({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'SUBSIDIZ', display: 'subsidized health program' }], text: 'Medicaid' });
    expect(JSON.parse(columns.classes as string)).to.deep.equal([{ type: 'group', value: 'GRP-100', name: 'Retirees' }, { type: 'plan', value: 'PLAN-B' }]);
    expect(JSON.parse(columns.subscriber_name as string)).to.deep.equal({ family: 'Okafor', given: ['Chidi', 'Emeka'] });
  });

  it('leaves every detail column null for a Coverage without them', () => {
    expect(columnsOf({})).to.include({ coverage_type: null, classes: null, relationship: null, subscriber_name: null, subscriber_birth_date: null, subscriber_gender: null });
  });

  it('a subscriber that is the beneficiary: relationship self (given when left out), no subscriber columns', () => {
    for (const overrides of [{ subscriber: BENEFICIARY }, { subscriber: BENEFICIARY, relationship: relationship('self') }]) {
      expect(columnsOf(overrides)).to.include({ relationship: 'self', subscriber_name: null, subscriber_birth_date: null, subscriber_gender: null });
    }
    // Patient/<id> in another case is the same resident (ids are UUIDs).
    const byId = coverageMapping.toColumns(coverage({ reference: 'Patient/1C9D6A0E-4B1F-4A57-9D6C-2F6A2B3C4D5E' }, 'COV-1', { subscriber: { reference: 'Patient/1c9d6a0e-4b1f-4a57-9d6c-2f6a2b3c4d5e' } }) as IngestResource);
    expect('columns' in byId && byId.columns.relationship).to.equal('self');
    // Named another way (Patient/<id> of a beneficiary sent by identifier): relationship self decides.
    expect(columnsOf({ subscriber: { reference: 'Patient/1c9d6a0e-4b1f-4a57-9d6c-2f6a2b3c4d5e', display: 'Okafor, Adaeze' }, relationship: relationship('self') })).to.include({ relationship: 'self', subscriber_name: null });
  });

  it('a subscriber by display or identifier only keeps what it says: a "Family, Given" display as the name, nothing else guessed', () => {
    const byDisplay = columnsOf({ subscriber: { display: 'Okafor, Chidi Emeka' }, relationship: relationship('child') });
    expect(byDisplay).to.include({ relationship: 'child', subscriber_birth_date: null, subscriber_gender: null });
    expect(JSON.parse(byDisplay.subscriber_name as string)).to.deep.equal({ family: 'Okafor', given: ['Chidi', 'Emeka'] });
    expect(columnsOf({ subscriber: { display: 'Chidi Okafor' }, relationship: relationship('child') })).to.include({ relationship: 'child', subscriber_name: null });
    expect(columnsOf({ subscriber: { identifier: { system: 'https://payer.example/member', value: 'M-9' } }, relationship: relationship('child') })).to.include({ relationship: 'child', subscriber_name: null });
  });

  it('a partial birth date of the subscriber is valid FHIR but not a day: not kept; the rest is', () => {
    const person = { ...dependent.contained[0], birthDate: '1938' };
    expect(columnsOf({ ...dependent, contained: [person] })).to.include({ subscriber_birth_date: null, subscriber_gender: 'male' });
  });

  const refusals: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['a relationship of another system', { relationship: relationship('SPS', 'http://terminology.hl7.org/CodeSystem/v3-RoleCode') }, 'Coverage.relationship.coding', /subscriber-relationship/],
    ['an unknown relationship code', { relationship: relationship('cousin') }, 'Coverage.relationship', /one of self, spouse, child/],
    ['a class type of another system', { class: [{ type: { coding: [{ system: 'https://payer.example/class', code: 'group' }] }, value: 'G' }] }, 'Coverage.class[0].type.coding', /coverage-class/],
    ['an unknown class type', { class: [klass('tier', 'G')] }, 'Coverage.class[0].type', /group, subgroup, plan/],
    ['a class without a value', { class: [klass('group', '')] }, 'Coverage.class[0].value', /required/],
    ['a class value longer than 64 characters', { class: [klass('group', 'G'.repeat(65))] }, 'Coverage.class[0].value', /longer than 64/],
    ['more than 20 classes', { class: Array.from({ length: 21 }, (_, i) => klass('group', `G${i}`)) }, 'Coverage.class', /at most 20/],
    ['a class that is not an array', { class: klass('group', 'G') }, 'Coverage.class', /array/],
    ['a type without coding or text', { type: {} }, 'Coverage.type', /coding or a text/],
    ['a subscriber # that names nothing contained', { subscriber: { reference: '#nobody' }, relationship: relationship('child') }, 'Coverage.subscriber.reference', /not a contained resource/],
    ['a contained subscriber with relationship self', { ...dependent, relationship: relationship('self') }, 'Coverage.relationship', /self/],
    ['the beneficiary as subscriber with relationship child', { subscriber: BENEFICIARY, relationship: relationship('child') }, 'Coverage.relationship', /must be self/],
    ['a subscriber gender not of FHIR', { ...dependent, contained: [{ ...dependent.contained[0], gender: 'M' }] }, 'Coverage.contained[0].gender', /male, female/],
    ['a malformed subscriber birth date', { ...dependent, contained: [{ ...dependent.contained[0], birthDate: '11/02/1938' }] }, 'Coverage.contained[0].birthDate', /YYYY-MM-DD/],
    ['a subscriber family name longer than 100 characters', { ...dependent, contained: [{ ...dependent.contained[0], name: [{ family: 'O'.repeat(101) }] }] }, 'Coverage.contained[0].name[0].family', /longer than 100/],
  ];
  for (const [what, overrides, expression, diagnostics] of refusals) {
    it(`refuses ${what}, naming the element`, () => {
      const issue = issueOf(overrides);
      expect(issue.expression).to.deep.equal([expression]);
      expect(issue.diagnostics).to.match(diagnostics);
    });
  }

  it('the elements a row stands for map back to the same columns (what a 271 writes again)', () => {
    for (const overrides of [
      {},
      { subscriber: BENEFICIARY },
      { ...dependent, type: { text: 'Medicare Advantage' }, class: [klass('group', 'GRP-100', 'Retirees'), klass('rxbin', '610014')] },
      { subscriber: { display: 'Okafor, Chidi' } },
      { ...dependent, relationship: relationship('injured'), contained: [{ resourceType: 'RelatedPerson', id: 'sub', patient: BENEFICIARY, gender: 'unknown' }] },
    ]) {
      const columns = columnsOf(overrides);
      const again = columnsOf({ ...coverageDetailElements(columns, BENEFICIARY.reference) });
      expect(again, JSON.stringify(overrides)).to.deep.equal(columns);
    }
  });

  it('a change of any detail is coverage.updated; the same details again are not', () => {
    const before = columnsOf({ ...dependent, class: [klass('group', 'GRP-100')] });
    expect(coverageMapping.events(before, columnsOf({ ...dependent, class: [klass('group', 'GRP-100')] }))).to.deep.equal([]);
    for (const overrides of [
      { ...dependent, class: [klass('group', 'GRP-200')] },
      { ...dependent, class: [klass('group', 'GRP-100'), klass('plan', 'P')] },
      { ...dependent, relationship: relationship('common'), class: [klass('group', 'GRP-100')] },
      { ...dependent, type: { text: 'HMO' }, class: [klass('group', 'GRP-100')] },
      { ...dependent, contained: [{ ...dependent.contained[0], birthDate: '1938-02-12' }], class: [klass('group', 'GRP-100')] },
      { subscriber: BENEFICIARY, class: [klass('group', 'GRP-100')] },
    ]) {
      expect(coverageMapping.events(before, columnsOf(overrides)), JSON.stringify(overrides)).to.deep.equal(['coverage.updated']);
    }
  });
});
