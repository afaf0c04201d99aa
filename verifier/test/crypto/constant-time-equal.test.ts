import { expect } from 'chai';
import { constantTimeEqual } from '../../src/crypto/constant-time-equal.js';

describe('constantTimeEqual', () => {
  it('is true for equal bytes, including empty arrays', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).to.equal(true);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).to.equal(true);
  });

  it('is false when any single bit differs, at any position', () => {
    const reference = new Uint8Array(32).map((_, i) => i * 7);
    for (let i = 0; i < 32; i++) {
      for (const bit of [0x01, 0x80]) {
        const other = new Uint8Array(reference);
        other[i] = other[i]! ^ bit;
        expect(constantTimeEqual(reference, other), `byte ${i} bit ${bit}`).to.equal(false);
      }
    }
  });

  it('is false for different lengths', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).to.equal(false);
  });
});
