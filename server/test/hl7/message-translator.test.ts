// HL7 v2.5.1 ADT -> Patient and event: fixtures written from the published ADT_A01 layout,
// with repeating PID-3 and PID-5, escape sequences, and the fields each refusal must name.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { readMessage } from '../../src/hl7/message-applier.js';
import { translateMessage } from '../../src/hl7/message-translator.js';
import { Hl7Failure } from '../../src/hl7/hl7-failure.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const translate = (text: string) => translateMessage(readMessage(text), '2026-01-15');

function failureOf(text: string): Hl7Failure {
  try {
    translate(text);
  } catch (error) {
    if (error instanceof Hl7Failure) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const A01 = fixture('adt-a01.hl7');
const replaceSegment = (text: string, name: string, segment: string) => text.split('\r').map((s) => (s.startsWith(`${name}|`) ? segment : s)).join('\r');

describe('HL7 v2 ADT translation', () => {
  it('maps an A01 to an active Patient with every PID-3 identifier, the legal name unescaped, birth date and sex', () => {
    const t = translate(A01);
    expect(t.event).to.equal('A01');
    expect(t.controlId).to.equal('MSG00001');
    expect(t.sendingApplication).to.equal('EPICADT');
    expect(t.facilityCode).to.equal('MAPLE');
    expect(t.facilityCodeAt).to.equal('PV1-3.4');
    expect(t.match).to.deep.equal({ system: 'urn:oid:2.16.840.1.113883.19.5', value: '000456789' });
    expect(t.patient).to.deep.equal({
      resourceType: 'Patient',
      identifier: [
        { system: 'urn:oid:2.16.840.1.113883.19.5', value: '000456789' },
        { system: 'urn:oid:2.16.840.1.113883.4.1', value: '999-12-3456' },
      ],
      active: true,
      name: [{ use: 'official', family: 'O&Brien', given: ['Mary', 'Ann'] }],
      gender: 'female',
      birthDate: '1938-04-12',
    });
  });

  it('takes the facility from MSH-4 when PV1-3.4 is empty', () => {
    const t = translate(replaceSegment(A01, 'PV1', 'PV1|1|I|2W^201^A'));
    expect(t.facilityCode).to.equal('MAPLE');
    expect(t.facilityCodeAt).to.equal('MSH-4');
  });

  it('maps A03 and A11 to inactive, A13 and A04 to active, A02 and A12 to active at PV1-3.4, A08 to keep', () => {
    expect(translate(fixture("adt-a03.hl7")).patient!.active).to.equal(false);
    expect(translate(fixture('adt-a02-transfer.hl7'))).to.include({ event: 'A02', facilityCode: 'RIVERSIDE', active: true });
    expect(translate(fixture('adt-a08.hl7')).active).to.equal('keep');
    for (const [event, active] of [['A11', false], ['A13', true], ['A04', true], ['A12', true]] as const) {
      expect(translate(A01.replace('ADT^A01^ADT_A01', `ADT^${event}^ADT_A01`)).active, event).to.equal(active);
    }
  });

  it('decodes \\F\\ \\S\\ \\R\\ \\E\\ and hex escapes in names', () => {
    const t = translate(replaceSegment(A01, 'PID', 'PID|1||77^^^MAPLEMRN&2.16.840.1.113883.19.5&ISO^MR||A\\F\\B\\S\\C\\R\\D\\E\\E\\X41\\^Jo||19380412|M'));
    expect(t.patient!.name).to.deep.equal([{ use: 'official', family: 'A|B^C~D\\EA', given: ['Jo'] }]);
    expect(t.patient!.gender).to.equal('male');
  });

  it('names an assigning authority without an OID by its namespace', () => {
    const t = translate(replaceSegment(A01, 'PID', 'PID|1||55^^^MAPLE^MR||Doe^Jane||19400101|F'));
    expect(t.match).to.deep.equal({ system: 'urn:ofctx:hl7v2:assigner:MAPLE', value: '55' });
  });

  // Not keys: the applier keeps the resident's own values, and refuses only a new resident without a birth date.
  const leftOut: Array<[string, string, string, string]> = [
    ['a bad birth date', A01.replace('|19380412|', '|19381345|'), 'PID-7', 'data_type_error'],
    ['a partial birth date', A01.replace('|19380412|', '|1938|'), 'PID-7', 'data_type_error'],
    ['a placeholder birth date', A01.replace('|19380412|', '|DOB|'), 'PID-7', 'data_type_error'],
    ['an unknown sex', A01.replace('|19380412|F|', '|19380412|Q|'), 'PID-8', 'table_value_not_found'],
  ];
  for (const [what, text, where, code] of leftOut) {
    it(`leaves out ${what}, naming ${where} in a warning, and keeps the rest of the Patient`, () => {
      const t = translate(text);
      expect(t.warnings.map((w) => [w.where, w.code])).to.deep.equal([[where, code]]);
      expect(t.patient!.name).to.have.length(1);
      expect(t.patient).to.not.have.property(where === 'PID-7' ? 'birthDate' : 'gender');
    });
  }

  it('reads no birth date as none, without a warning (the applier needs one only for a new resident)', () => {
    const t = translate(A01.replace('|19380412|', '||'));
    expect(t.warnings).to.deep.equal([]);
    expect(t.patient).to.not.have.property('birthDate');
  });

  it('takes the facility the source is bound to when the message names none, and still refuses when it is bound to none', () => {
    const nameless = replaceSegment(A01, 'PV1', 'PV1|1|I|2W').replace('|EPICADT|MAPLE|', '|EPICADT||');
    const t = translateMessage(readMessage(nameless), '2026-01-15', 'LAB-ONLY');
    expect([t.facilityCode, t.facilityCodeAt]).to.deep.equal(['LAB-ONLY', 'source']);
    expect(translateMessage(readMessage(A01), '2026-01-15', 'LAB-ONLY').facilityCode, 'a message naming its facility goes by its name').to.equal('MAPLE');
    expect(failureOf(nameless).where).to.equal('PV1-3.4');
  });

  const refusals: Array<[string, string, 'AE' | 'AR', string, string]> = [
    ['an unknown event', A01.replace('ADT^A01^ADT_A01', 'ADT^A99^ADT_A01'), 'AR', 'MSH-9.2', 'unsupported_event_code'],
    ['another message type', A01.replace('ADT^A01^ADT_A01', 'SIU^S12^SIU_S12'), 'AR', 'MSH-9.1', 'unsupported_message_type'],
    ['no control id', A01.replace('|MSG00001|', '||'), 'AR', 'MSH-10', 'required_field_missing'],
    ['no identifier', replaceSegment(A01, 'PID', 'PID|1||||Doe^Jane||19400101|F'), 'AE', 'PID-3', 'required_field_missing'],
    ['no family name', replaceSegment(A01, 'PID', 'PID|1||55^^^MAPLE^MR||^Jane||19400101|F'), 'AE', 'PID-5.1', 'required_field_missing'],
    ['no PID', A01.split('\r').filter((s) => !s.startsWith('PID')).join('\r'), 'AE', 'PID', 'segment_sequence'],
    ['no PV1 in an A01', A01.split('\r').filter((s) => !s.startsWith('PV1')).join('\r'), 'AE', 'PV1', 'segment_sequence'],
    ['no facility anywhere', replaceSegment(A01, 'PV1', 'PV1|1|I|2W').replace('|EPICADT|MAPLE|', '|EPICADT||'), 'AE', 'PV1-3.4', 'required_field_missing'],
  ];
  for (const [what, text, ack, where, code] of refusals) {
    it(`refuses ${what} with ${ack} naming ${where}`, () => {
      const failure = failureOf(text);
      expect(failure.ackCode).to.equal(ack);
      expect(failure.where).to.equal(where);
      expect(failure.code).to.equal(code);
    });
  }

  it('refuses wrong encoding characters and a missing MSH before anything is read', () => {
    for (const text of [A01.replace('MSH|^~\\&|', 'MSH|^~^&|'), A01.replace('MSH|^~\\&|', 'MSH|^~|'), A01.replace('MSH|^~\\&|', 'MSHA^~\\&A'), A01.slice(A01.indexOf('\r') + 1)]) {
      let failure: unknown;
      try {
        readMessage(text);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Hl7Failure);
      expect((failure as Hl7Failure).ackCode).to.equal('AR');
      expect((failure as Hl7Failure).location?.segment).to.equal('MSH');
    }
  });
});
