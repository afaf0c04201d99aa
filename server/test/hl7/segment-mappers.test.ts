// The segment mappers, through translateMessage, on fixtures written from the published
// layouts (HL7 v2.5.1 chapters 3, 4, 6, 7) and the v2-to-FHIR IG's segment maps: what each
// field becomes, the list rules (snapshot, explicit null, action codes), and what is dropped
// with a warning instead of refusing the message.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readMessage } from '../../src/hl7/message-applier.js';
import { translateMessage, type Hl7Translation } from '../../src/hl7/message-translator.js';
import { hl7Message, MRN_SYSTEM, pidOf, segment } from '../../../test/support/adt-messages.js';

const PV1 = 'PV1|1|I|2W^201^A^MAPLE';
const translate = (type: string, segments: string[]): Hl7Translation => translateMessage(readMessage(hl7Message(type, 'UNIT-1', segments)), '2026-01-15');
const adt = (...segments: string[]) => translate('ADT^A08^ADT_A01', [pidOf('U-1'), PV1, ...segments]);
const resources = (t: Hl7Translation, type: string) => t.records.map((r) => r.resource as Record<string, any>).filter((r) => r.resourceType === type);

describe('HL7 v2 segment mappers', () => {
  it('IN1/IN2 -> Coverage: payor name and id, policy number, period, COB order, cancelled when the plan ended; the identifier is the plan + policy', () => {
    const t = adt(segment('IN1', { 1: '2', 2: 'PLAN-A', 3: 'PAYER-9', 4: 'Acme Health', 12: '20240101', 13: '20251231', 22: '3', 36: 'POL-7' }), 'IN2||123-45-6789');
    const [coverage] = resources(t, 'Coverage');
    expect(coverage).to.deep.include({ status: 'cancelled', subscriberId: 'POL-7', order: 3, period: { start: '2024-01-01', end: '2025-12-31' } });
    expect(coverage!.payor).to.deep.equal([{ identifier: { value: 'PAYER-9' }, display: 'Acme Health' }]);
    expect(t.records[0]!.identifier).to.deep.equal({ system: 'urn:ofctx:hl7v2:coverage:TESTADT:PLAN-A', value: 'POL-7' });
    // IN1-36 empty: the insured's id (IN1-49), then IN2-6 (Medicare number).
    expect(resources(adt(segment('IN1', { 1: '1', 4: 'Medicare', 12: '20240101' }), segment('IN2', { 6: 'MBI-1' })), 'Coverage')[0]!.subscriberId).to.equal('MBI-1');
  });

  it('AL1 -> AllergyIntolerance: category (table 0127), criticality and severity (table 0128), reactions as text, code systems as FHIR URIs', () => {
    const [allergy] = resources(adt('AL1|1|FA|227493005^Cashew nuts^SCT|MO|Rash~Swelling|20200101'), 'AllergyIntolerance');
    expect(allergy).to.deep.include({ category: ['food'], criticality: 'low' });
    expect(allergy!.code.coding).to.deep.equal([{ system: 'http://snomed.info/sct', code: '227493005', display: 'Cashew nuts' }]);
    expect(allergy!.reaction).to.deep.equal([{ manifestation: [{ text: 'Rash' }, { text: 'Swelling' }], severity: 'moderate' }]);
    // No coding system: a local code of the sender.
    expect(resources(adt('AL1|1|DA|00000741^OXYCODONE'), 'AllergyIntolerance')[0]!.code.coding[0].system).to.equal('urn:ofctx:hl7v2:code-system:TESTADT:local');
  });

  it('IAM action codes decide instead of the snapshot: D turns the allergy inactive, IAM-7 identifies it', () => {
    const t = adt('IAM|1|DA|70618^Penicillin^RXNORM|SV|Hives|D|ALG-42');
    const [allergy] = resources(t, 'AllergyIntolerance');
    expect(allergy!.clinicalStatus.coding[0].code).to.equal('inactive');
    expect(t.records[0]!.identifier.value).to.equal('ALG-42');
    expect(t.snapshots).to.deep.equal([]);
  });

  it('the snapshot rule: segments of a kind state the list; none leaves it; "" empties it; a dropped item or an action code keeps it from being a snapshot', () => {
    expect(adt('AL1|1|DA|70618^Penicillin^RXNORM').snapshots.map((s) => s.type)).to.deep.equal(['AllergyIntolerance']);
    expect(adt().snapshots).to.deep.equal([]);
    const emptied = adt('DG1|1||""');
    expect(emptied.snapshots.map((s) => s.type)).to.deep.equal(['Condition']);
    expect(emptied.records).to.deep.equal([]);
    expect(adt('AL1|1|DA|70618^Penicillin^RXNORM', 'AL1|2|DA').snapshots).to.deep.equal([]);
    expect(adt('DG1|1||I10^Hypertension^I10C||||||||||||||||||DX-1|A').snapshots).to.deep.equal([]);
    // Results and orders only add and update.
    expect(translate('ORU^R01^ORU_R01', [pidOf('U-1'), PV1, 'AL1|1|DA|70618^Penicillin^RXNORM']).snapshots).to.deep.equal([]);
  });

  it('DG1 -> Condition: code, description, onset in the sender zone, encounter-diagnosis; DG1-20 identifies it', () => {
    const t = adt('DG1|1||E11.9^Type 2 diabetes^I10C|Diabetes|202401150930|F||||||||||||||DX-7');
    const [condition] = resources(t, 'Condition');
    expect(condition).to.deep.include({ onsetDateTime: '2024-01-15T09:30:00+00:00' });
    expect(condition!.category[0].coding[0].code).to.equal('encounter-diagnosis');
    expect(condition!.code.coding[0]).to.deep.equal({ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes' });
    expect(t.records[0]!.identifier.value).to.equal('DX-7');
  });

  it('OBX -> Observation by value type: NM with UCUM, NM with a unit that is not UCUM, SN, CWE, TX; status (table 0085); a LOINC alternate first', () => {
    const t = translate('ORU^R01^ORU_R01', [
      pidOf('U-1'),
      PV1,
      'OBR|1|PL-1|FL-1|24331-1^Lipid panel^LN|||20260115070000',
      'OBX|1|NM|2093-3^Cholesterol^LN||212|mg/dL^^UCUM|||||F',
      'OBX|2|NM|X1^Local thing^L||7|things|||||P',
      'OBX|3|SN|14957-5^Albumin^LN||<^30|mg/L|||||C',
      'OBX|4|CWE|57718-9^Sample quality^LN||LA12432-3^Acceptable^LN||||||A',
      'OBX|5|TX|20260^Comment^AEL^18771-6^Reviewer^LN||Line one~Line two||||||X',
    ]);
    const [nm, local, sn, cwe, tx] = resources(t, 'Observation');
    expect(nm).to.deep.include({ status: 'final', valueQuantity: { value: 212, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' }, effectiveDateTime: '2026-01-15T07:00:00+00:00' });
    expect(local).to.deep.include({ status: 'preliminary', valueQuantity: { value: 7, unit: 'things' } });
    expect(sn).to.deep.include({ status: 'corrected', valueQuantity: { value: 30, comparator: '<', unit: 'mg/L', system: 'http://unitsofmeasure.org', code: 'mg/L' } });
    expect(cwe).to.deep.include({ status: 'amended', valueCodeableConcept: { coding: [{ system: 'http://loinc.org', code: 'LA12432-3', display: 'Acceptable' }], text: 'Acceptable' } });
    expect(tx).to.deep.include({ status: 'cancelled', valueString: 'Line one\nLine two' });
    expect(tx!.code.coding[0].system).to.equal('http://loinc.org');
  });

  it('OBX as a lab sends it: NM in plain UCUM units as valueQuantity, OBX-7 as referenceRange, OBX-8 as interpretation, OBX-19 as issued, category laboratory', () => {
    const t = translate('ORU^R01^ORU_R01', [
      pidOf('U-1'),
      PV1,
      'OBR|1|PL-1|FL-1|24323-8^Metabolic panel^LN|||20260115070000',
      'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL|70-99|H|||F|||20260115071500|||||20260115093000',
      'OBX|2|NM|2823-3^Potassium^LN||2.4|mmol/L|3.5 - 5.1|LL~A|||F',
      'OBX|3|NM|6690-2^WBC^LN||7.2|10*3/uL|<11|N|||F',
      'OBX|4|NM|26515-7^Platelets^LN||250|K/uL|>150||||F',
      'OBX|5|ST|5778-6^Color^LN||Yellow||Yellow||||F',
      'OBX|6|NM|8867-4^Heart rate^LN||72|/min|||||F',
    ]);
    const [glucose, potassium, wbc, platelets, color, pulse] = resources(t, 'Observation');
    const UCUM = 'http://unitsofmeasure.org';
    const V3 = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
    expect(glucose).to.deep.include({
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory', display: 'Laboratory' }], text: 'Laboratory' }],
      effectiveDateTime: '2026-01-15T07:15:00+00:00',
      issued: '2026-01-15T09:30:00+00:00',
      valueQuantity: { value: 182, unit: 'mg/dL', system: UCUM, code: 'mg/dL' },
      referenceRange: [{ low: { value: 70, unit: 'mg/dL', system: UCUM, code: 'mg/dL' }, high: { value: 99, unit: 'mg/dL', system: UCUM, code: 'mg/dL' }, text: '70-99' }],
      interpretation: [{ coding: [{ system: V3, code: 'H', display: 'High' }], text: 'High' }],
    });
    expect(potassium!.interpretation.map((i: any) => i.coding[0].code)).to.deep.equal(['LL', 'A']);
    expect(potassium!.referenceRange[0]).to.deep.include({ text: '3.5 - 5.1' });
    expect(potassium!.referenceRange[0].low.value).to.equal(3.5);
    expect(wbc!.valueQuantity).to.deep.equal({ value: 7.2, unit: '10*3/uL', system: UCUM, code: '10*3/uL' });
    expect(wbc!.referenceRange).to.deep.equal([{ high: { value: 11, unit: '10*3/uL', system: UCUM, code: '10*3/uL' }, text: '<11' }]);
    // K/uL is valid UCUM as kelvin per microliter, which no lab means: the unit stays text.
    expect(platelets!.valueQuantity).to.deep.equal({ value: 250, unit: 'K/uL' });
    expect(platelets!.referenceRange).to.deep.equal([{ low: { value: 150, unit: 'K/uL' }, text: '>150' }]);
    expect(color).to.deep.include({ valueString: 'Yellow', referenceRange: [{ text: 'Yellow' }] });
    expect(pulse, 'a vital sign keeps its own category (the R4 view derives it)').to.not.have.property('category');
  });

  it("an order's results share the first 16 characters of their identifiers (side by side in the index by value), another order's do not; each names the value derived before as formerly", () => {
    const oru = (order: string) =>
      translate('ORU^R01^ORU_R01', [
        pidOf('U-1'),
        PV1,
        `OBR|1|PL-1|${order}|24323-8^Metabolic panel^LN|||20260115070000`,
        'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL|70-99|H|||F',
        'OBX|2|NM|2823-3^Potassium^LN||2.4|mmol/L|3.5-5.1|LL|||F',
        'OBX|3|NM|2160-0^Creatinine^LN||0.9|mg/dL|0.6-1.2|N|||F',
      ]).records.filter((r) => r.resource.resourceType === 'Observation');
    const first = oru('FL-1');
    const values = first.map((r) => r.identifier.value);
    expect(new Set(values).size).to.equal(3);
    for (const value of values) expect(value).to.match(/^[0-9a-f]{40}$/);
    expect(new Set(values.map((v) => v.slice(0, 16))).size).to.equal(1);
    expect(oru('FL-2')[0]!.identifier.value.slice(0, 16)).to.not.equal(values[0]!.slice(0, 16));
    // The same results sent again: the same identifiers.
    expect(oru('FL-1').map((r) => r.identifier.value)).to.deep.equal(values);
    // What releases before 2026-11-29 derived (a digest of the resident, the order, the code and OBX-4), kept to find results stored then.
    const [glucose] = first;
    const earlier = createHash('sha256').update(JSON.stringify([MRN_SYSTEM, 'U-1', 'urn:ofctx:hl7v2:filler-order:TESTADT|FL-1', 'http://loinc.org', '2345-7', ''])).digest('hex').slice(0, 40);
    expect(glucose!.formerly).to.deep.equal({ system: glucose!.identifier.system, value: earlier });
    expect(glucose!.identifier.value.slice(16)).to.equal(earlier.slice(0, 24));
    // The shared part is the order's own digest (of the resident and the order).
    const ofOrder = (order: string) => createHash('sha256').update(JSON.stringify([MRN_SYSTEM, 'U-1', `urn:ofctx:hl7v2:filler-order:TESTADT|${order}`])).digest('hex').slice(0, 16);
    expect(values[0]!.slice(0, 16)).to.equal(ofOrder('FL-1'));
  });

  it('two orders in one message: each order\'s results take that order\'s part, digested once a message', () => {
    const results = translate('ORU^R01^ORU_R01', [
      pidOf('U-1'),
      PV1,
      'OBR|1|PL-1|FL-1|24323-8^Metabolic panel^LN|||20260115070000',
      'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL|70-99|H|||F',
      'OBX|2|NM|2823-3^Potassium^LN||2.4|mmol/L|3.5-5.1|LL|||F',
      'OBR|2|PL-2|FL-2|58410-2^CBC^LN|||20260115070000',
      'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL|70-99|H|||F',
      'OBX|2|NM|777-3^Platelets^LN||250|10*3/uL|150-400|N|||F',
    ]).records.filter((r) => r.resource.resourceType === 'Observation');
    const ofOrder = (order: string) => createHash('sha256').update(JSON.stringify([MRN_SYSTEM, 'U-1', `urn:ofctx:hl7v2:filler-order:TESTADT|${order}`])).digest('hex').slice(0, 16);
    expect(results.map((r) => r.identifier.value.slice(0, 16))).to.deep.equal([ofOrder('FL-1'), ofOrder('FL-1'), ofOrder('FL-2'), ofOrder('FL-2')]);
    // The same code under each order is two results, not one.
    expect(results[0]!.identifier.value).to.not.equal(results[2]!.identifier.value);
  });

  it('SN as valueQuantity with a comparator, valueRange or valueRatio; an NM written with a comparator keeps it; a bad OBX-19 or OBX-14 is left out with a warning', () => {
    const t = translate('ORU^R01^ORU_R01', [
      pidOf('U-1'),
      PV1,
      'OBR|1|PL-1|FL-1|24323-8^Panel^LN|||20260115070000',
      'OBX|1|SN|1-1^A^L||>=^5|mg/L|||||F',
      'OBX|2|SN|1-2^B^L||^1^-^5|mg/L|||||F',
      'OBX|3|SN|1-3^C^L||^1^:^128||||||F',
      'OBX|4|NM|1-4^D^L||<0.5|ng/mL|||||F||||||||notatime',
      'OBX|5|SN|1-5^E^L||^2^+|||||F',
      'OBX|6|NM|1-6^F^L||5|mg/L|||||F|||20261345',
    ]);
    const [a, b, c, d, e, f] = resources(t, 'Observation');
    expect(a!.valueQuantity).to.deep.include({ value: 5, comparator: '>=' });
    expect(b!.valueRange).to.deep.equal({ low: { value: 1, unit: 'mg/L', system: 'http://unitsofmeasure.org', code: 'mg/L' }, high: { value: 5, unit: 'mg/L', system: 'http://unitsofmeasure.org', code: 'mg/L' } });
    expect(c!.valueRatio).to.deep.equal({ numerator: { value: 1 }, denominator: { value: 128 } });
    expect(d!.valueQuantity).to.deep.include({ value: 0.5, comparator: '<', unit: 'ng/mL' });
    expect(d).to.not.have.property('issued');
    expect(e!.valueString).to.equal('2+');
    // A malformed OBX-14 is left out: the order's time (OBR-7) stands in.
    expect(f!.effectiveDateTime).to.equal('2026-01-15T07:00:00+00:00');
    expect(t.warnings.map((w) => [w.where, w.location?.sequence])).to.deep.equal([['OBX-19', 4], ['OBX-14', 6]]);
  });

  it('keeps a diagnosis and an order whose date is malformed (DG1-5, ORC-9), the date left out and named in a warning', () => {
    const t = translate('ORM^O01^ORM_O01', [pidOf('U-1'), PV1, 'DG1|1||I10^Hypertension^I10C||2024133', 'ORC|NW|P-7^EHR|||||||20261345', 'OBR|1|P-7^EHR||24725-4^CT Head^LN']);
    const [condition] = resources(t, 'Condition');
    const [request] = resources(t, 'ServiceRequest');
    expect(condition).to.not.have.property('onsetDateTime');
    expect(request).to.not.have.property('authoredOn');
    expect(t.warnings.map((w) => w.where)).to.deep.equal(['DG1-5', 'ORC-9']);
  });

  it('drops, with a warning naming the segment, an OBX without a code or without a value, and keeps the rest', () => {
    const t = translate('ORU^R01^ORU_R01', [pidOf('U-1'), PV1, 'OBR|1|PL-1||24331-1^Lipid panel^LN', 'OBX|1|NM|||5||||||F', 'OBX|2|NM|2093-3^Cholesterol^LN||||||||I', 'OBX|3|ST|2093-3^Cholesterol^LN||high||||||F|||20260115']);
    expect(resources(t, 'Observation')).to.have.length(1);
    expect(resources(t, 'DiagnosticReport')[0]!.result, 'the report lists what was kept').to.have.length(1);
    expect(t.warnings.map((w) => w.location?.segment)).to.deep.equal(['OBX', 'OBX']);
    expect(t.warnings.map((w) => w.location?.sequence)).to.deep.equal([1, 2]);
  });

  it('ORC+OBR -> ServiceRequest (placer and filler numbers, ORC-5 status); ORC+RXO without RXE -> MedicationRequest; ORC-1 CA cancels', () => {
    const orm = translate('ORM^O01^ORM_O01', [pidOf('U-1'), PV1, 'ORC|NW|P-1^EHR|F-1^LAB||CM||||202601150800', 'OBR|1|||24725-4^CT Head^LN']);
    const [request] = resources(orm, 'ServiceRequest');
    expect(request).to.deep.include({ status: 'completed', intent: 'order', authoredOn: '2026-01-15T08:00:00+00:00' });
    expect(request!.identifier).to.deep.equal([{ system: 'urn:ofctx:hl7v2:placer-order:EHR', value: 'P-1' }, { system: 'urn:ofctx:hl7v2:filler-order:LAB', value: 'F-1' }]);
    const cancelled = translate('ORM^O01^ORM_O01', [pidOf('U-1'), PV1, 'ORC|CA|P-1^EHR', 'RXO|00047040230^Ampicillin 250 mg^NDC']);
    expect(resources(cancelled, 'MedicationRequest')[0]).to.deep.include({ status: 'cancelled' });
  });

  it('A40: the MRG-1 identifier is the resident to merge; A28/A31 keep the resident as it is', () => {
    const t = translate('ADT^A40^ADT_A39', [pidOf('U-1'), 'MRG|OLD-1^^^MAPLEMRN&2.16.840.1.113883.19.5&ISO^MR']);
    expect(t.replaces).to.deep.equal({ system: 'urn:oid:2.16.840.1.113883.19.5', value: 'OLD-1' });
    expect(t.active).to.equal('keep');
    for (const event of ['A28', 'A31']) expect(translate(`ADT^${event}^ADT_A05`, [pidOf('U-1')]).active, event).to.equal('keep');
  });

  it('PID-3 without an assigning authority is namespaced by the sending application and facility', () => {
    const t = translate('ORU^R01^ORU_R01', ['PID|1||MRN12345||Doe^Jane||19780101|F', PV1]);
    expect(t.match).to.deep.equal({ system: 'urn:ofctx:hl7v2:sender:TESTADT:OFCTX', value: 'MRN12345' });
  });
});
