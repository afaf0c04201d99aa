// FHIR R4 Observation -> observations row -> the R4 view and the `/ofctx/` shape: a lab result
// sent as FHIR keeps a unit that is not UCUM, its reference range, interpretation, category and
// issued time; a bare unit that is valid UCUM gets UCUM's system and code; the `/ofctx/` shape
// is unchanged (valueString always, valueQuantity only when UCUM and exact).
import { expect } from 'chai';
import { observationMapping } from '../../../src/ingest/mapping/observation.js';
import type { ChangeIssue, IngestResource } from '../../../src/ingest/change-set.js';
import type { Columns } from '../../../src/ingest/mapping/resource-mapping.js';
import { toR4Observation } from '../../../src/resources/r4/r4-observation.js';
import { toObservation } from '../../../src/resources/fhir-observation.js';
import { observation } from '../../../../test/support/fhir-resources.js';
import { checkR4 } from '../../../../test/support/r4-validator.js';

const SUBJECT = { reference: 'Patient?identifier=urn:oid:2.16.840.1.113883.19.5|MRN-1' };
const UCUM = 'http://unitsofmeasure.org';
const LAB = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory', display: 'Laboratory' }], text: 'Laboratory' };
const GLUCOSE = { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }] };
const HIGH = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H', display: 'High' }], text: 'High' };

function columnsOf(overrides: Record<string, unknown>): Columns {
  const mapped = observationMapping.toColumns(observation(SUBJECT, 'OBS-1', overrides) as IngestResource);
  if ('issue' in mapped) throw new Error(`refused: ${mapped.issue.diagnostics}`);
  return mapped.columns;
}

function issueOf(overrides: Record<string, unknown>): ChangeIssue {
  const mapped = observationMapping.toColumns(observation(SUBJECT, 'OBS-1', overrides) as IngestResource);
  if (!('issue' in mapped)) throw new Error(`kept: ${JSON.stringify(mapped.columns)}`);
  return mapped.issue;
}

const row = (columns: Columns) => ({ ...columns, id: '0b0c6a5e-8f0e-4d43-9d38-2a4f1c1f6a11', seq: 1, resident_id: '5d7c8a3e-1f2b-4c9d-8e7f-6a5b4c3d2e1f', version_id: 1, last_updated: '2026-01-31T09:00:00.000Z' }) as never;

describe('the Observation mapping: lab results', () => {
  it('keeps a unit that is not UCUM as text, a reference range, interpretation, category and issued; the R4 view renders them as valid R4', () => {
    const columns = columnsOf({
      code: GLUCOSE,
      category: [LAB],
      valueQuantity: { value: 182, unit: 'mg per dL (local)' },
      referenceRange: [{ low: { value: 70, unit: 'mg per dL (local)' }, high: { value: 99, unit: 'mg per dL (local)' }, text: '70-99' }],
      interpretation: [HIGH],
      issued: '2026-01-31T09:30:00+01:00',
    });
    expect(columns).to.include({ value_string: '182 mg per dL (local)', category_code: 'laboratory', issued_at: '2026-01-31T08:30:00.000Z' });
    const r4 = toR4Observation(row(columns));
    expect(r4).to.deep.include({ category: [LAB], valueQuantity: { value: 182, unit: 'mg per dL (local)' }, interpretation: [HIGH], issued: '2026-01-31T08:30:00.000Z' });
    expect(r4.referenceRange).to.deep.equal([{ low: { value: 70, unit: 'mg per dL (local)' }, high: { value: 99, unit: 'mg per dL (local)' }, text: '70-99' }]);
    expect(checkR4(r4)).to.deep.equal([]);
    // The spec's shape: the value as text, no quantity that is not UCUM.
    const plain = toObservation(row(columns));
    expect(plain.valueString).to.equal('182 mg per dL (local)');
    expect(plain).to.not.have.property('valueQuantity');
  });

  it('gives a bare unit that is valid UCUM its system and code; keeps a comparator (R4 only), a range and a ratio', () => {
    expect(JSON.parse(columnsOf({ valueQuantity: { value: 5.4, unit: 'mmol/L' } }).value_quantity as string)).to.deep.equal({ value: 5.4, unit: 'mmol/L', system: UCUM, code: 'mmol/L' });
    const compared = columnsOf({ valueQuantity: { value: 5, comparator: '<', unit: 'mg/L', system: UCUM, code: 'mg/L' } });
    expect(compared.value_string).to.equal('<5 mg/L');
    expect(toR4Observation(row(compared)).valueQuantity).to.deep.equal({ value: 5, comparator: '<', unit: 'mg/L', system: UCUM, code: 'mg/L' });
    expect(toObservation(row(compared))).to.not.have.property('valueQuantity');
    const range = columnsOf({ valueQuantity: undefined, valueRange: { low: { value: 1 }, high: { value: 5 } } });
    expect(range.value_string).to.equal('1-5');
    const ratio = toR4Observation(row(columnsOf({ valueQuantity: undefined, valueRatio: { numerator: { value: 1 }, denominator: { value: 128 } } })));
    expect(ratio.valueRatio).to.deep.equal({ numerator: { value: 1 }, denominator: { value: 128 } });
    expect(checkR4(ratio)).to.deep.equal([]);
  });

  it('keeps the `/ofctx/` valueQuantity of a UCUM vital sign as it was', () => {
    expect(toObservation(row(columnsOf({})))).to.deep.include({ valueString: '72 /min', valueQuantity: { value: 72, unit: '/min', system: UCUM, code: '/min' } });
  });

  it('refuses a reference range with nothing in it and a comparator on a range bound, naming the element', () => {
    expect(issueOf({ referenceRange: [{}] }).expression).to.deep.equal(['Observation.referenceRange[0]']);
    expect(issueOf({ referenceRange: [{ low: { value: 1, comparator: '<' } }] }).expression).to.deep.equal(['Observation.referenceRange[0].low.comparator']);
    expect(issueOf({ valueQuantity: { value: 1, comparator: '~' } }).expression).to.deep.equal(['Observation.valueQuantity.comparator']);
  });
});
