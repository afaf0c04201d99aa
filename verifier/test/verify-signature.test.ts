import { expect } from 'chai';
import { BodyNotRawError, verifySignature, verifySignatureAsync, type HeaderValue, type RawBody } from '../src/index.js';
import { goldenVector, vectors } from './support/signature-vectors.js';

type Verify = (rawBody: RawBody, header: HeaderValue, secret: string | readonly string[]) => Promise<boolean>;

// The same behaviour is required of the sync (node:crypto) API and of the async one on both engines.
const implementations: [string, Verify][] = [
  ['verifySignature', async (body, header, secret) => verifySignature(body, header, secret)],
  ['verifySignatureAsync (node)', (body, header, secret) => verifySignatureAsync(body, header, secret, { crypto: 'node' })],
  ['verifySignatureAsync (web)', (body, header, secret) => verifySignatureAsync(body, header, secret, { crypto: 'web' })],
];

function flipped(body: Uint8Array, index: number): Uint8Array {
  const copy = new Uint8Array(body);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
}

for (const [name, verify] of implementations) {
  describe(name, () => {
    it('accepts every shared vector, given as bytes', async () => {
      for (const vector of vectors) expect(await verify(vector.body, vector.signature, vector.secret), vector.name).to.equal(true);
    });

    it('accepts every UTF-8 vector given as a string', async () => {
      for (const vector of vectors.filter((v) => v.body_utf8 !== undefined)) {
        expect(await verify(vector.body_utf8!, vector.signature, vector.secret), vector.name).to.equal(true);
      }
    });

    it('rejects every vector with one byte flipped (first, middle, last), or a byte appended', async () => {
      for (const vector of vectors) {
        const { body, signature, secret } = vector;
        const tampered = body.length === 0 ? [new Uint8Array([0x20])] : [0, body.length >> 1, body.length - 1].map((i) => flipped(body, i));
        tampered.push(new Uint8Array([...body, 0x0a]));
        for (const bytes of tampered) expect(await verify(bytes, signature, secret), vector.name).to.equal(false);
      }
    });

    it('rejects a wrong secret, the secret without its prefix, and the prefix alone', async () => {
      const { body, signature, secret } = goldenVector;
      for (const wrong of [`${secret}x`, secret.slice(0, -1), secret.slice('ofx_whs_'.length), 'ofx_whs_', secret.toUpperCase()]) {
        expect(await verify(body, signature, wrong), wrong).to.equal(false);
      }
    });

    it('accepts the header in upper case and with surrounding spaces', async () => {
      const { body, signature, secret } = goldenVector;
      expect(await verify(body, signature.toUpperCase(), secret)).to.equal(true);
      expect(await verify(body, `  ${signature}\t`, secret)).to.equal(true);
      expect(await verify(body, [signature], secret)).to.equal(true);
    });

    it('answers false, without throwing, for malformed headers', async () => {
      const { body, signature, secret } = goldenVector;
      const malformed: unknown[] = [
        undefined,
        null,
        '',
        '   ',
        signature.slice(0, 63),
        `${signature}0`,
        `sha256=${signature}`,
        `${signature.slice(0, 63)}g`,
        `${signature.slice(0, 62)} 0`,
        [],
        [signature, signature],
        42,
        { value: signature },
        Buffer.from(signature),
      ];
      for (const header of malformed) expect(await verify(body, header as HeaderValue, secret), String(header)).to.equal(false);
    });

    it('accepts a match on any of several secrets', async () => {
      const { body, signature, secret } = goldenVector;
      expect(await verify(body, signature, ['ofx_whs_other', secret])).to.equal(true);
      expect(await verify(body, signature, ['ofx_whs_other', 'ofx_whs_another'])).to.equal(false);
    });

    it('throws a TypeError for a missing, empty or binary secret', async () => {
      const { body, signature } = goldenVector;
      for (const secret of [undefined, null, '', '  ', [], Buffer.from('ofx_whs_x')]) {
        let thrown: unknown;
        try {
          await verify(body, signature, secret as unknown as string);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, String(secret)).to.be.instanceOf(TypeError).with.property('message').that.matches(/secret/);
      }
    });

    it('throws BodyNotRawError for a parsed body, pointing at raw bytes', async () => {
      const { body_utf8, signature, secret } = goldenVector;
      let thrown: unknown;
      try {
        await verify(JSON.parse(body_utf8!) as RawBody, signature, secret);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(BodyNotRawError).with.property('message').that.matches(/express\.raw/);
    });
  });
}
