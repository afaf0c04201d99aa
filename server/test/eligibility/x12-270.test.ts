// Writing X12 005010X279A1 270 inquiries: the segments of a subscriber and of a dependent
// inquiry, names normalised, control numbers padded, every refusal naming its field, and
// every 270 reading back with node-x12.
import { expect } from 'chai';
import { X12Parser, type X12Interchange } from 'node-x12';
import { build270, InvalidInquiry, type EligibilityInquiry } from '../../src/eligibility/x12-270.js';
import { sampleInquiry, INQUIRY_TRACE } from '../../../test/support/eligibility-inquiry.js';

const TRACE = INQUIRY_TRACE;

const inquiry = (overrides: Partial<EligibilityInquiry> = {}) => sampleInquiry(overrides);

function segments(text: string): string[] {
  expect(text.endsWith('~')).to.equal(true);
  return text.slice(0, -1).split('~');
}

function refusal(value: EligibilityInquiry): InvalidInquiry {
  try {
    build270(value);
  } catch (error) {
    if (error instanceof InvalidInquiry) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('X12 270 writing', () => {
  it('writes a subscriber inquiry segment by segment', () => {
    const built = build270(inquiry({ subscriber: { lastName: 'Okafor', firstName: 'Adaeze', middleName: 'N', suffix: 'Jr', memberId: '1EG4TE5MK73', groupNumber: 'GRP-77', birthDate: '1941-02-03', gender: 'female' } }));
    expect(segments(built.text)).to.deep.equal([
      'ISA*00*          *00*          *ZZ*OFCTXSUBMITTER *ZZ*CLEARINGHOUSE  *260304*0506*^*00501*000000042*0*T*:',
      'GS*HS*OFCTXSUBMITTER*CLEARINGHOUSE*20260304*0506*42*X*005010X279A1',
      'ST*270*0042*005010X279A1',
      `BHT*0022*13*${TRACE}*20260304*0506`,
      'HL*1**20*1',
      'NM1*PR*2*MEDICARE PART A*****PI*CMS',
      'HL*2*1*21*1',
      'NM1*1P*2*MAPLE GROVE NURSING HOME*****XX*1234567893',
      'HL*3*2*22*0',
      `TRN*1*${TRACE}*9123456789`,
      'NM1*IL*1*OKAFOR*ADAEZE*N**JR*MI*1EG4TE5MK73',
      'REF*6P*GRP-77',
      'DMG*D8*19410203*F',
      'DTP*291*D8*20260304',
      'EQ*30',
      'SE*14*0042',
      'GE*1*42',
      'IEA*1*000000042',
    ]);
    expect(built.interchangeControlNumber).to.equal('000000042');
    expect(built.transactionSetControlNumber).to.equal('0042');
  });

  it('keeps the ISA at its fixed width of 106 characters', () => {
    const isa = build270(inquiry()).text.split('~')[0]!;
    expect(isa.length + 1).to.equal(106);
  });

  it('writes a dependent inquiry with the trace, date and service types in loop 2000D', () => {
    const built = build270(inquiry({
      production: true,
      dependent: { lastName: 'Okafor', firstName: 'Chidi', birthDate: '2010-07-08', gender: 'male', relationship: '19' },
      serviceTypes: ['30', '1'],
    }));
    expect(segments(built.text).slice(0, 1)[0]).to.match(/\*0\*P\*:$/);
    expect(segments(built.text).slice(8)).to.deep.equal([
      'HL*3*2*22*1',
      'NM1*IL*1*OKAFOR*ADAEZE****MI*1EG4TE5MK73',
      'DMG*D8*19410203*F',
      'HL*4*3*23*0',
      `TRN*1*${TRACE}*9123456789`,
      'NM1*03*1*OKAFOR*CHIDI',
      'DMG*D8*20100708*M',
      'INS*N*19',
      'DTP*291*D8*20260304',
      'EQ*30',
      'EQ*1',
      'SE*18*0042',
      'GE*1*42',
      'IEA*1*000000042',
    ]);
  });

  it('leaves out INS without a relationship, DMG without a birth date and DMG03 without a gender', () => {
    const text = build270(inquiry({ subscriber: { lastName: 'Okafor', memberId: 'M1', birthDate: '1941-02-03' }, dependent: { lastName: 'Okafor', firstName: 'Chidi', gender: 'other' } })).text;
    expect(text).to.contain('~DMG*D8*19410203~');
    expect(text).to.contain('~NM1*03*1*OKAFOR*CHIDI~DTP*291');
    expect(text).not.to.contain('INS*');
  });

  it('writes one EQ per service type, EQ*30 by default', () => {
    expect(segments(build270(inquiry()).text).filter((s) => s.startsWith('EQ'))).to.deep.equal(['EQ*30']);
    expect(segments(build270(inquiry({ serviceTypes: ['30', 'AG', '42'] })).text).filter((s) => s.startsWith('EQ'))).to.deep.equal(['EQ*30', 'EQ*AG', 'EQ*42']);
  });

  it('normalises names: upper case, accents dropped, delimiters and other characters removed, spaces collapsed', () => {
    const text = build270(inquiry({
      payer: { name: 'Acme*Health ~ Plan:  of^ the  North', id: 'ACME1' },
      subscriber: { lastName: "  O'Brien-Smith\t ", firstName: 'José  María', middleName: 'Zoë☃', memberId: 'M1' },
    })).text;
    expect(text).to.contain('NM1*PR*2*ACMEHEALTH PLAN OF THE NORTH*****PI*ACME1~');
    expect(text).to.contain("NM1*IL*1*O'BRIEN-SMITH*JOSE MARIA*ZOE***MI*M1~");
  });

  it('moves a generational suffix written into the last name to NM107, and leaves names that only end like one', () => {
    const name = (lastName: string, suffix?: string) => /NM1\*IL\*1\*([^~]*)~/.exec(build270(inquiry({ subscriber: { lastName, firstName: 'Ray', memberId: 'M1', ...(suffix ? { suffix } : {}) } })).text)![1];
    expect(name('Smith Jr.')).to.equal('SMITH*RAY***JR*MI*M1');
    expect(name('Smith, III')).to.equal('SMITH*RAY***III*MI*M1');
    expect(name('Van Der Berg')).to.equal('VAN DER BERG*RAY****MI*M1');
    expect(name('Iv')).to.equal('IV*RAY****MI*M1');
    expect(name('Smith Jr', 'Sr')).to.equal('SMITH JR*RAY***SR*MI*M1');
  });

  it('pads control numbers: ISA13 to 9 digits, ST02 to at least 4, GS06 as it is', () => {
    for (const [n, isa13, st02] of [[1, '000000001', '0001'], [12345, '000012345', '12345'], [999999999, '999999999', '999999999']] as const) {
      const built = build270(inquiry({ controlNumber: n }));
      expect(built).to.deep.include({ interchangeControlNumber: isa13, transactionSetControlNumber: st02 });
      expect(built.text).to.contain(`*${n}*X*005010X279A1~ST*270*${st02}*`);
      expect(built.text).to.contain(`~IEA*1*${isa13}~`);
    }
  });

  it('reads back with node-x12: one interchange, a 270 whose counts are right', () => {
    const built = build270(inquiry({ dependent: { lastName: 'Okafor', firstName: 'Chidi' } }));
    const parsed = new X12Parser(true).parse(built.text) as X12Interchange;
    const tx = parsed.functionalGroups[0]!.transactions[0]!;
    expect(tx.header.elements[0]!.value).to.equal('270');
    expect(tx.segments.filter((s) => s.tag === 'HL').map((s) => s.elements.map((e) => e.value).join('*'))).to.deep.equal(['1**20*1', '2*1*21*1', '3*2*22*1', '4*3*23*0']);
    expect(Number(tx.trailer.elements[0]!.value)).to.equal(tx.segments.length + 2);
  });

  const refusals: Array<[string, Partial<EligibilityInquiry>, string, RegExp]> = [
    ['an empty last name', { subscriber: { lastName: ' *~ ', memberId: 'M1' } }, 'subscriber.lastName', /is required and is empty/],
    ['a last name longer than 60', { subscriber: { lastName: 'A'.repeat(61), memberId: 'M1' } }, 'subscriber.lastName', /60 characters/],
    ['a first name longer than 35', { subscriber: { lastName: 'A', firstName: 'B'.repeat(36), memberId: 'M1' } }, 'subscriber.firstName', /35 characters/],
    ['an empty dependent last name', { dependent: { lastName: '' } }, 'dependent.lastName', /is required/],
    ['a missing member id', { subscriber: { lastName: 'A', memberId: ' ' } }, 'subscriber.memberId', /is required/],
    ['a member id longer than 80', { subscriber: { lastName: 'A', memberId: 'M'.repeat(81) } }, 'subscriber.memberId', /2 to 80/],
    ['a member id holding a delimiter', { subscriber: { lastName: 'A', memberId: 'M1*2' } }, 'subscriber.memberId', /cannot carry/],
    ['a group number longer than 50', { subscriber: { lastName: 'A', memberId: 'M1', groupNumber: 'G'.repeat(51) } }, 'subscriber.groupNumber', /50/],
    ['a sender id longer than 15', { senderId: 'S'.repeat(16) }, 'senderId', /15/],
    ['an empty receiver id', { receiverId: '' }, 'receiverId', /is required/],
    ['a payer name longer than 60', { payer: { name: 'P'.repeat(61), id: 'CMS' } }, 'payer.name', /60/],
    ['an empty payer id', { payer: { name: 'P', id: '' } }, 'payer.id', /is required/],
    ['an empty provider name', { provider: { name: '  ', npi: '1234567893' } }, 'provider.name', /is required/],
    ['an NPI whose check digit is wrong', { provider: { name: 'P', npi: '1234567890' } }, 'provider.npi', /check digit is wrong/],
    ['an NPI of 9 digits', { provider: { name: 'P', npi: '123456789' } }, 'provider.npi', /10 digits/],
    ['an impossible birth date', { subscriber: { lastName: 'A', memberId: 'M1', birthDate: '1941-02-30' } }, 'subscriber.birthDate', /YYYY-MM-DD/],
    ['a dependent birth date in another format', { dependent: { lastName: 'A', birthDate: '03/04/2010' } }, 'dependent.birthDate', /YYYY-MM-DD/],
    ['a bad service date', { serviceDate: '2026-13-01' }, 'serviceDate', /YYYY-MM-DD/],
    ['an invalid time', { at: new Date(Number.NaN) }, 'at', /valid date/],
    ['a control number of 0', { controlNumber: 0 }, 'controlNumber', /1 to 999999999/],
    ['a control number of 10 digits', { controlNumber: 1_000_000_000 }, 'controlNumber', /1 to 999999999/],
    ['a fractional control number', { controlNumber: 1.5 }, 'controlNumber', /whole number/],
    ['an empty trace', { trace: '' }, 'trace', /is required/],
    ['a trace longer than 50', { trace: 'T'.repeat(51) }, 'trace', /50/],
    ['a service type that is not a code', { serviceTypes: ['health'] }, 'serviceTypes', /service type code/],
    ['no service type', { serviceTypes: [] }, 'serviceTypes', /1 to 99/],
    ['an unknown gender', { subscriber: { lastName: 'A', memberId: 'M1', birthDate: '1941-02-03', gender: 'toString' as 'male' } }, 'subscriber.gender', /male, female/],
    ['a relationship that is not a code', { dependent: { lastName: 'A', relationship: 'child' } }, 'dependent.relationship', /relationship code/],
  ];
  for (const [what, overrides, field, message] of refusals) {
    it(`refuses ${what}, naming ${field}`, () => {
      const error = refusal(inquiry(overrides));
      expect(error.field).to.equal(field);
      expect(error.message).to.match(message);
      expect(error.message.startsWith(`${field}: `)).to.equal(true);
    });
  }

  it('never puts the refused value in the message', () => {
    const error = refusal(inquiry({ subscriber: { lastName: 'Okafor', memberId: 'SECRET*ID' } }));
    expect(error.message).not.to.contain('SECRET');
    expect(refusal(inquiry({ provider: { name: 'P', npi: '1234567890' } })).message).not.to.contain('1234567890');
  });
});
