// Reading X12 005010X279A1 271 interchanges: the fixture (multiple subscribers, a dependent,
// repeating EB03, AAA) and every refusal naming its segment and element.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { subscriberLoops } from '../../src/x12/eligibility-271.js';
import { X12Error } from '../../src/x12/x12-error.js';

const FIXTURE = readFileSync(new URL('./fixtures/eligibility-271.x12', import.meta.url), 'utf8');

function refusal(text: string): X12Error {
  try {
    subscriberLoops(text);
  } catch (error) {
    if (error instanceof X12Error) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('X12 271 reading', () => {
  it('reads every 2000C and 2000D loop: trace, member id, payer, plan dates, eligibility codes, rejections', () => {
    const loops = subscriberLoops(FIXTURE);
    expect(loops.map((l) => l.at)).to.deep.equal(['2000C loop HL*3', '2000C loop HL*4', '2000C loop HL*5', '2000C loop HL*6', '2000D loop HL*7']);
    expect(loops[0]).to.deep.include({ trace: '{COVERAGE_ID}', memberId: '1EG4TE5MK73', payer: 'MEDICARE PART A NORTH', planStart: '2024-01-01', planEnd: '2027-12-31', eligibility: ['1'], rejections: [] });
    expect(loops[1]).to.deep.include({ trace: '{SOURCE_ID}', payer: 'MEDICARE PART A', planStart: '2023-01-01', eligibility: ['6'] });
    expect(loops[2]!.rejections).to.deep.equal([{ code: '72', action: 'C', reason: 'AAA 72: Invalid/missing subscriber/insured ID' }]);
    expect(loops[3]).to.deep.include({ memberId: 'SUB-4', level: 'subscriber' });
    expect(loops[3]!.trace).to.equal(undefined);
    expect(loops[4]).to.deep.include({ level: 'dependent', trace: 'UNKNOWN-TRACE', eligibility: ['1'] });
  });

  it('reads each EB segment with its MSG: coverage level, service types, plan description, period, amount, percent, quantity, network', () => {
    const text = FIXTURE.replace('EB*6*IND*30~', 'EB*6*IND*30~\nEB*C*FAM*30^98***23*1500.50*****Y~\nMSG*PER CALENDAR YEAR~\nEB*A*IND*30*****.25****N~\nEB*F*IND*33***23***VS*20**W~').replace('SE*29*0001', 'SE*33*0001');
    const loop = subscriberLoops(text)[1]!;
    expect(loop.eligibility).to.deep.equal(['6', 'C', 'A', 'F']);
    expect(loop.benefits).to.deep.equal([
      { code: '6', coverageLevel: 'IND', serviceTypes: ['30'], messages: [] },
      { code: 'C', coverageLevel: 'FAM', serviceTypes: ['30', '98'], timePeriod: '23', amount: '1500.50', network: 'Y', messages: ['PER CALENDAR YEAR'] },
      { code: 'A', coverageLevel: 'IND', serviceTypes: ['30'], percent: '.25', network: 'N', messages: [] },
      { code: 'F', coverageLevel: 'IND', serviceTypes: ['33'], timePeriod: '23', quantityQualifier: 'VS', quantity: '20', network: 'W', messages: [] },
    ]);
    expect(loop).to.include({ created: '2026-01-15', payerId: 'CMS' });
    expect(loop.key).to.equal('MEDICAREPAYER/905/0001/4');
  });

  const cases: Array<[string, string, RegExp]> = [
    ['a wrong SE01 count', FIXTURE.replace('SE*29*0001', 'SE*30*0001'), /^SE: .*SE01 \(30\) does not match/],
    ['a wrong GE01 count', FIXTURE.replace('GE*1*905', 'GE*2*905'), /GE01 \(2\)/],
    ['a wrong IEA01 count', FIXTURE.replace('IEA*1*', 'IEA*4*'), /IEA01 \(4\)/],
    ['SE02 not matching ST02', FIXTURE.replace('SE*29*0001', 'SE*29*0002'), /^SE: .*SE02 \(0002\)/],
    ['GE02 not matching GS06', FIXTURE.replace('GE*1*905', 'GE*1*906'), /^GE: .*GE02 \(906\)/],
    ['IEA02 not matching ISA13', FIXTURE.replace('IEA*1*000000905', 'IEA*1*000000906'), /^IEA: .*IEA02 \(906\)/],
    ['a truncated interchange', FIXTURE.slice(0, FIXTURE.indexOf('GE*')), /^IEA: the interchange has no IEA/],
    ['no ISA', FIXTURE.slice(FIXTURE.indexOf('GS*')), /^ISA: /],
    ['another transaction set', FIXTURE.replace('ST*271', 'ST*270'), /^ST: ST01 must be 271/],
    ['a bad plan date', FIXTURE.replace('20240101-20271231', '20240101-20271332'), /^segment 11 of ST\*0001 \(DTP, line 13\), DTP03: "20271332" is not a date/],
    ['an unknown date format qualifier', FIXTURE.replace('DTP*346*D8', 'DTP*346*DX'), /DTP02: DTP02 "DX" must be D8 or RD8/],
    ['an unknown HL level', FIXTURE.replace('HL*4*2*22*0', 'HL*4*2*99*0'), /HL03: HL03 "99"/],
    ['an unknown EB01 code', FIXTURE.replace('EB*6*IND*30', 'EB*ZZ*IND*30'), /EB01: EB01 "ZZ"/],
    ['an unknown NM108 qualifier', FIXTURE.replace('MI*2XY4TE5MK74', 'QQ*2XY4TE5MK74'), /NM108: NM108 "QQ"/],
    ['a subscriber loop naming a payer', FIXTURE.replace('NM1*IL*1*DOE', 'NM1*PR*1*DOE'), /NM101: NM101 "PR" cannot name/],
    ['an unknown TRN01', FIXTURE.replace('TRN*2*{SOURCE_ID}', 'TRN*7*{SOURCE_ID}'), /TRN01: TRN01 "7"/],
    ['an AAA01 other than Y or N', FIXTURE.replace('AAA*Y**72', 'AAA*Q**72'), /AAA01: AAA01 "Q"/],
    ['an EB07 that is not an amount', FIXTURE.replace('EB*6*IND*30', 'EB*C*IND*30***23*12O0'), /EB07: EB07 "12O0" is not a monetary amount/],
    ['an EB08 percent above 1', FIXTURE.replace('EB*6*IND*30', 'EB*A*IND*30*****20'), /EB08: EB08 "20" is a percent between 0 and 1/],
    ['an EB10 quantity without its EB09 qualifier', FIXTURE.replace('EB*6*IND*30', 'EB*F*IND*33***23****20'), /EB09: EB10 \(quantity\) needs its qualifier EB09/],
    ['an unknown EB12', FIXTURE.replace('EB*6*IND*30', 'EB*C*IND*30***23*1500*****X'), /EB12: EB12 "X" must be Y, N, U or W/],
    // Found by the contract walk (server/test/openapi/hostile-requests/): each was a 500.
    ['a NUL character in an element', FIXTURE.replace('NM1*IL*1*DOE', 'NM1*IL*1*D\u0000OE'), /^segment \d+ \(NM1, line \d+\): the NUL character \(U\+0000\)/],
    ['an HL01 longer than 12 characters', FIXTURE.replace('HL*4*2*22*0', `HL*${'4'.repeat(13)}*2*22*0`), /HL01: HL01 must be 1 to 12 characters \(AN 1\/12\); got 13/],
    ['an ST02 longer than 9 characters', FIXTURE.replace('ST*271*0001', 'ST*271*0123456789').replace('SE*29*0001', 'SE*29*0123456789'), /^ST: ST02 must be 4 to 9 characters/],
  ];
  for (const [what, text, message] of cases) {
    it(`refuses ${what}, naming where`, () => {
      expect(refusal(text).message).to.match(message);
    });
  }
});
