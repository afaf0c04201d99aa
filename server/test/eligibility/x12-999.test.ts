// Reading X12 005010X231A1 999 acknowledgments: accepted or refused, and each IK3/IK4/IK5/AK9
// error in plain words.
import { expect } from 'chai';
import { read999 } from '../../src/eligibility/x12-999.js';
import { X12Error } from '../../src/x12/x12-error.js';

function ack999(body: string[]): string {
  const tx = ['ST*999*0001*005010X231A1', 'AK1*HS*42*005010X279A1', ...body];
  tx.push(`SE*${tx.length + 1}*0001`);
  return [
    'ISA*00*          *00*          *ZZ*CLEARINGHOUSE  *ZZ*OFCTXSUBMITTER *260304*0506*^*00501*000000777*0*T*:',
    'GS*FA*CLEARINGHOUSE*OFCTXSUBMITTER*20260304*0506*777*X*005010X231A1',
    ...tx,
    'GE*1*777',
    'IEA*1*000000777',
  ].join('~\n') + '~\n';
}

const REFUSED = ack999([
  'AK2*270*0042*005010X279A1',
  'IK3*NM1*9*2100C*8',
  'IK4*9*67*7*BADVALUE',
  'IK3*DMG*10*2100C*8',
  'IK4*2*1251*8',
  'IK5*R*5',
  'AK9*R*1*1*0',
]);

describe('X12 999 reading', () => {
  it('reads a refusal with each segment and element error in plain words', () => {
    expect(read999(REFUSED)).to.deep.equal({
      accepted: false,
      code: 'R',
      errors: [
        { segment: 'NM1', position: '9', loop: '2100C', code: '8', description: 'Segment has data element errors' },
        { segment: 'NM1', position: '9', loop: '2100C', element: '9', code: '7', description: 'Invalid code value' },
        { segment: 'DMG', position: '10', loop: '2100C', code: '8', description: 'Segment has data element errors' },
        { segment: 'DMG', position: '10', loop: '2100C', element: '2', code: '8', description: 'Invalid date' },
        { code: '5', description: 'One or more segments in error' },
      ],
    });
  });

  it('never carries the copy of the bad element (IK404), which may be the resident\'s data', () => {
    expect(JSON.stringify(read999(REFUSED))).not.to.contain('BADVALUE');
  });

  it('reads an acceptance', () => {
    expect(read999(ack999(['AK2*270*0042*005010X279A1', 'IK5*A', 'AK9*A*1*1*1']))).to.deep.equal({ accepted: true, code: 'A', errors: [] });
  });

  it('counts "accepted with errors noted" as accepted and keeps the errors', () => {
    const ack = read999(ack999(['AK2*270*0042*005010X279A1', 'IK3*REF*10**I9', 'IK5*E', 'AK9*E*1*1*1']));
    expect(ack).to.deep.equal({ accepted: true, code: 'E', errors: [{ segment: 'REF', position: '10', code: 'I9', description: 'Implementation dependent "not used" segment present' }] });
  });

  it('reads a missing segment, a group level error and an unknown code', () => {
    const ack = read999(ack999(['AK2*270*0042*005010X279A1', 'IK3*DTP*12*2100C*3', 'IK5*R*I5*ZZ', 'AK9*R*1*1*0*5']));
    expect(ack.accepted).to.equal(false);
    expect(ack.errors).to.deep.equal([
      { segment: 'DTP', position: '12', loop: '2100C', code: '3', description: 'Required segment missing' },
      { code: 'I5', description: 'Implementation one or more segments in error' },
      { code: 'ZZ', description: 'error code ZZ' },
      { code: '5', description: 'Number of included transaction sets does not match actual count' },
    ]);
  });

  it('takes IK501 when there is no AK9, and counts a partial acceptance as a refusal', () => {
    expect(read999(ack999(['AK2*270*0042*005010X279A1', 'IK5*R*1']))).to.deep.include({ accepted: false, code: 'R' });
    expect(read999(ack999(['AK2*270*0042*005010X279A1', 'IK5*R*5', 'AK9*P*1*1*0']))).to.deep.include({ accepted: false, code: 'P' });
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['text that is not X12', 'not x12 at all', /^ISA: /],
    ['a 271', ack999(['AK9*A*1*1*1']).replace('GS*FA', 'GS*HB'), /^GS: GS01 must be FA/],
    ['another transaction set', ack999(['AK9*A*1*1*1']).replace('ST*999', 'ST*997'), /^ST: ST01 must be 999/],
    ['a wrong segment count', ack999(['AK9*A*1*1*1']).replace('SE*4*', 'SE*9*'), /SE/],
    ['a 999 saying nothing', ack999([]), /^AK9: /],
    ['an unknown AK901', ack999(['AK9*Q*1*1*1']), /^AK9: AK901 "Q"/],
  ];
  for (const [what, text, message] of refusals) {
    it(`refuses ${what} with an X12Error`, () => {
      expect(() => read999(text)).to.throw(X12Error, message);
    });
  }
});
