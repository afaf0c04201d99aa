import { expect } from 'chai';
import { createHmac, webcrypto } from 'node:crypto';
import { asyncHmacEngine, selectAsyncHmacEngine, syncHmacEngine } from '../../src/crypto/hmac-engine.js';
import { nodeHmacEngine as unavailableNodeEngine } from '../../src/crypto/node-hmac-unavailable.js';

const subtle = webcrypto.subtle as SubtleCrypto;
const key = new TextEncoder().encode('ofx_whs_key');
const data = new TextEncoder().encode('{"a":1}');
const expected = createHmac('sha256', key).update(data).digest();

describe('HMAC engine selection', () => {
  it('uses node:crypto on Node for the sync API and for auto', async () => {
    expect(syncHmacEngine().name).to.equal('node');
    expect(asyncHmacEngine().name).to.equal('node');
    expect(asyncHmacEngine('auto').name).to.equal('node');
    expect(Buffer.from(syncHmacEngine().hmacSha256(key, data))).to.deep.equal(expected);
  });

  it('uses Web Crypto when forced, with the same digest', async () => {
    const engine = asyncHmacEngine('web');
    expect(engine.name).to.equal('web');
    expect(Buffer.from(await engine.hmacSha256(key, data))).to.deep.equal(expected);
  });

  it('falls back to Web Crypto for auto where node:crypto is absent', async () => {
    const engine = selectAsyncHmacEngine('auto', unavailableNodeEngine, subtle);
    expect(engine.name).to.equal('web');
    expect(Buffer.from(await engine.hmacSha256(key, data))).to.deep.equal(expected);
  });

  it('says to use the async API when node:crypto is forced but absent', () => {
    expect(() => selectAsyncHmacEngine('node', undefined, subtle)).to.throw(/node:crypto is not available.*verifyDeliveryAsync/);
  });

  it('says so when neither is available, and rejects an unknown choice', () => {
    expect(() => selectAsyncHmacEngine('auto', undefined, undefined)).to.throw(/Web Crypto/);
    expect(() => asyncHmacEngine('openssl' as never)).to.throw(TypeError, /'auto', 'node' or 'web'/);
  });

  it('compares digests in both engines: equal bytes match, any differing byte does not', async () => {
    for (const engine of [asyncHmacEngine('node'), asyncHmacEngine('web')]) {
      const digest = await engine.hmacSha256(key, data);
      expect(engine.equal(digest, new Uint8Array(expected))).to.equal(true);
      for (const index of [0, 15, 31]) {
        const other = new Uint8Array(expected);
        other[index] = other[index]! ^ 0x80;
        expect(engine.equal(digest, other), `${engine.name} byte ${index}`).to.equal(false);
      }
      expect(engine.equal(digest, digest.subarray(0, 31))).to.equal(false);
    }
  });
});
