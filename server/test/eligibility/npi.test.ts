// NPI validation: the length and the Luhn check digit over 80840 and the first nine digits.
import { expect } from 'chai';
import { npiProblem } from '../../src/eligibility/npi.js';

describe('NPI check', () => {
  it('accepts NPIs whose check digit is right', () => {
    expect(npiProblem('1234567893')).to.equal(undefined);
    expect(npiProblem('1245319599')).to.equal(undefined);
  });

  it('refuses an NPI whose check digit is wrong', () => {
    for (const wrong of ['1234567890', '1234567894', '1245319590']) {
      expect(npiProblem(wrong)).to.match(/check digit is wrong/);
    }
  });

  it('refuses an NPI that is not exactly 10 digits', () => {
    for (const bad of ['', '123456789', '12345678933', '123456789X', ' 1234567893', '12345-7893']) {
      expect(npiProblem(bad)).to.equal('an NPI is 10 digits');
    }
  });

  it('never repeats the value in its message', () => {
    expect(npiProblem('1234567890')).not.to.contain('1234567890');
  });
});
