import { expect } from 'chai';
import { sign, signAsync } from '../src/index.js';
import { vectors } from './support/signature-vectors.js';

describe('sign', () => {
  it('reproduces every shared vector from the bytes', () => {
    for (const vector of vectors) expect(sign(vector.body, vector.secret), vector.name).to.equal(vector.signature);
  });

  it('signs a string as its UTF-8 bytes, and accepts ArrayBuffer and Uint8Array', () => {
    for (const vector of vectors.filter((v) => v.body_utf8 !== undefined)) {
      expect(sign(vector.body_utf8!, vector.secret), vector.name).to.equal(vector.signature);
    }
    const [vector] = vectors;
    const copy = new Uint8Array(vector!.body);
    expect(sign(copy, vector!.secret)).to.equal(vector!.signature);
    expect(sign(copy.buffer, vector!.secret)).to.equal(vector!.signature);
  });

  it('refuses a missing or empty secret', () => {
    expect(() => sign('{}', '')).to.throw(TypeError, /signing secret/);
    expect(() => sign('{}', undefined as unknown as string)).to.throw(TypeError, /signing secret/);
  });
});

describe('signAsync', () => {
  for (const crypto of ['node', 'web', 'auto'] as const) {
    it(`reproduces every shared vector with crypto: '${crypto}'`, async () => {
      for (const vector of vectors) {
        expect(await signAsync(vector.body, vector.secret, { crypto }), vector.name).to.equal(vector.signature);
      }
    });
  }
});
