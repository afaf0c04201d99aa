// The shared vector file itself: its shape (the server's signer reads it too) and every
// signature recomputed with node:crypto, independently of the verifier.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { vectorDocument, vectors } from './support/signature-vectors.js';

describe('test/vectors/signatures.json', () => {
  it('has a description and cases with exactly the agreed fields', () => {
    expect(vectorDocument.description).to.be.a('string').that.is.not.empty;
    for (const vector of vectorDocument.cases) {
      const fields = ['name', 'secret', 'body_base64', 'signature', ...(vector.body_utf8 === undefined ? [] : ['body_utf8'])];
      expect(Object.keys(vector), vector.name).to.have.members(fields);
      expect(vector.signature, vector.name).to.match(/^[0-9a-f]{64}$/);
    }
  });

  it('gives body_utf8 exactly when the bytes are valid UTF-8, and then the same bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const vector of vectors) {
      let text: string | undefined;
      try {
        text = strict.decode(vector.body);
      } catch {
        text = undefined;
      }
      expect(vector.body_utf8, vector.name).to.equal(text);
    }
  });

  it('covers the cases receivers get wrong', () => {
    const names = vectors.map((vector) => vector.name);
    for (const required of [
      'golden delivery envelope',
      'unicode accents and CJK',
      'emoji outside the BMP',
      'plain slashes',
      'escaped slashes',
      'pretty-printed envelope',
      'trailing newline',
      'empty body',
      'line separator U+2028 unescaped',
      'invalid UTF-8 bytes',
      '4 KiB body',
      'secret with non-ASCII characters',
    ]) {
      expect(names).to.include(required);
    }
    expect(vectors.find((v) => v.name === '4 KiB body')!.body.length).to.equal(4096);
    expect(vectors.find((v) => v.name === 'invalid UTF-8 bytes')!.body_utf8).to.equal(undefined);
    expect(vectors.find((v) => v.name === 'secret with non-ASCII characters')!.secret).to.match(/[^\x00-\x7f]/);
  });

  it('holds signatures that node:crypto reproduces from the body bytes and the secret UTF-8 bytes', () => {
    for (const vector of vectors) {
      const recomputed = createHmac('sha256', Buffer.from(vector.secret, 'utf8')).update(vector.body).digest('hex');
      expect(recomputed, vector.name).to.equal(vector.signature);
    }
  });

  it('distinguishes bodies that differ only in escaping or formatting', () => {
    const signatureOf = (name: string) => vectors.find((vector) => vector.name === name)!.signature;
    expect(signatureOf('plain slashes')).to.not.equal(signatureOf('escaped slashes'));
    expect(new Set(['golden delivery envelope', 'pretty-printed envelope', 'trailing newline'].map(signatureOf)).size).to.equal(3);
  });
});
