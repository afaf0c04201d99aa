// The R4 JSON Schema check of what the HL7 v2 mappers build (ingest/r4-json-schema.ts): it
// accepts what Medplum's validator accepts for every resource the mappers build from the real
// samples and from each message kind, and refuses the values a sender can break, naming the
// element as Medplum would.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMessage } from '../../src/hl7/message-applier.js';
import { translateMessage } from '../../src/hl7/message-translator.js';
import { r4SchemaIssues, type SchemaCheckedType } from '../../src/ingest/r4-json-schema.js';
import { checkR4, r4Problems } from '../../../test/support/r4-validator.js';
import { adtRecordMessage, labObservations, ormMessage, oruMessage } from '../../../test/support/hl7-clinical-messages.js';

const SAMPLES = fileURLToPath(new URL('../../../../shared/samples/hl7v2/', import.meta.url));

type Built = { resourceType: SchemaCheckedType; [element: string]: unknown };

function builtBy(text: string): Built[] {
  const t = translateMessage(readMessage(text), undefined, 'SAMPLES-LAB');
  return [...(t.patient ? [t.patient] : []), ...t.records.map((r) => r.resource)] as Built[];
}

const OPTIONS = { controlId: 'S-1', mrn: 'M-1', facility: 'MAPLE' };

describe('the R4 JSON Schema check of HL7 v2-built resources', function () {
  this.timeout(60_000);

  it('accepts every resource the mappers build from each message kind, as Medplum does', () => {
    const messages = [
      oruMessage({ ...OPTIONS, groups: [labObservations(10), [{ type: 'ST', code: '8251-1', value: 'tolerated well' }, { type: 'CWE', code: '600-7', value: '112283007^E. coli^SCT' }]] }),
      ormMessage({ ...OPTIONS, orders: 2, observations: labObservations(2) }),
      adtRecordMessage({ ...OPTIONS, plans: 2, allergies: 2, diagnoses: 2, observations: labObservations(3) }),
    ];
    const built = messages.flatMap(builtBy);
    expect(new Set(built.map((r) => r.resourceType))).to.include.members(['Patient', 'Observation', 'DiagnosticReport', 'ServiceRequest', 'AllergyIntolerance', 'Condition']);
    for (const resource of built) {
      expect(r4SchemaIssues(resource), JSON.stringify(resource)).to.deep.equal([]);
      expect(checkR4(resource)).to.deep.equal([]);
    }
  });

  it('agrees with Medplum on every resource built from the real samples', function () {
    if (!existsSync(SAMPLES)) this.skip();
    let checked = 0;
    for (const project of readdirSync(SAMPLES)) {
      for (const file of readdirSync(join(SAMPLES, project)).filter((f) => f.endsWith('.hl7'))) {
        for (const resource of builtBy(readFileSync(join(SAMPLES, project, file), 'utf8'))) {
          const schema = r4SchemaIssues(resource);
          const medplum = r4Problems(resource);
          expect(schema.length === 0, `${file} ${resource.resourceType}: schema ${JSON.stringify(schema)}, Medplum ${JSON.stringify(medplum)}`).to.equal(medplum.length === 0);
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(150);
  });

  const observation = () => builtBy(oruMessage({ ...OPTIONS, groups: [labObservations(1)] })).find((r) => r.resourceType === 'Observation')! as Built & { code: { coding: Array<Record<string, unknown>> } };

  // Values a sender's fields reach, each refused by both validators.
  const BROKEN: Array<[string, (o: ReturnType<typeof observation>) => unknown, string, string]> = [
    ['a code with a double space', (o) => ({ ...o, code: { coding: [{ ...o.code.coding[0], code: '2951  2' }] } }), 'Observation.code.coding[0].code', 'code'],
    ['a code with a leading space', (o) => ({ ...o, code: { coding: [{ ...o.code.coding[0], code: ' 2951-2' }] } }), 'Observation.code.coding[0].code', 'code'],
    ['an impossible month', (o) => ({ ...o, effectiveDateTime: '2026-13-01T08:00:00Z' }), 'Observation.effectiveDateTime', 'dateTime'],
    ['a uri with a space', (o) => ({ ...o, code: { coding: [{ ...o.code.coding[0], system: 'http://loinc org' }] } }), 'Observation.code.coding[0].system', 'uri'],
  ];
  for (const [what, broken, where, primitive] of BROKEN) {
    it(`refuses ${what}, naming ${where} (as Medplum does)`, () => {
      const resource = broken(observation()) as Built;
      const [issue] = r4SchemaIssues(resource);
      expect(issue).to.deep.include({ code: 'value', expression: [where] });
      expect(issue!.diagnostics).to.equal(`${where}: is not a valid FHIR ${primitive}`);
      expect(r4Problems(resource), 'Medplum refuses it too').to.have.length.greaterThan(0);
    });
  }

  it('refuses an empty string, which R4 forbids (stricter than Medplum, which lets it pass)', () => {
    const o = observation();
    const [issue] = r4SchemaIssues({ ...o, code: { coding: [{ ...o.code.coding[0], display: '' }] } });
    expect(issue).to.deep.equal({ code: 'value', diagnostics: 'Observation.code.coding[0].display: is not a valid FHIR string', expression: ['Observation.code.coding[0].display'] });
  });

  it('refuses a missing required element, an unknown element and a status outside its required binding', () => {
    const { code: _code, ...withoutCode } = observation();
    expect(r4SchemaIssues(withoutCode as Built)[0]).to.deep.include({ code: 'required', expression: ['Observation.code'] });
    expect(r4SchemaIssues({ ...observation(), favouriteColour: 'blue' } as Built)[0]).to.deep.include({ code: 'structure', expression: ['Observation.favouriteColour'] });
    const [status] = r4SchemaIssues({ ...observation(), status: 'done' } as Built);
    expect(status).to.deep.include({ code: 'value', expression: ['Observation.status'] });
    expect(status!.diagnostics).to.match(/^Observation\.status: must be one of "registered", "preliminary", "final"/);
  });

  it('checks a contained subscriber as the RelatedPerson it is, and nothing the mappers do not build', () => {
    const coverage: Built = { resourceType: 'Coverage', status: 'active', beneficiary: { reference: 'Patient/1' }, payor: [{ display: 'Medicare' }], subscriber: { reference: '#subscriber' } };
    const related = { resourceType: 'RelatedPerson', id: 'subscriber', patient: { reference: 'Patient/1' }, birthDate: '1941-02-03' };
    expect(r4SchemaIssues({ ...coverage, contained: [related] })).to.deep.equal([]);
    expect(r4SchemaIssues({ ...coverage, contained: [{ ...related, birthDate: '1941-02-3' }] })).to.have.length(1);
    expect(r4SchemaIssues({ ...coverage, contained: [{ ...related, resourceType: 'Account' }] }), 'not a type the mappers contain').to.have.length(1);
    expect(r4SchemaIssues({ resourceType: 'Bundle' } as unknown as Built)[0]).to.deep.include({ code: 'not-supported' });
  });
});
