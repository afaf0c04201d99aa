import { expect } from 'chai';
import { hashSecret, verifySecret } from '../../src/auth/secret-hash.js';

describe('client secret hashing', () => {
  it('stores an scrypt hash with its parameters and a random salt', async () => {
    const a = await hashSecret('ofx_cs_example');
    const b = await hashSecret('ofx_cs_example');
    expect(a).to.match(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
    expect(a).to.not.equal(b);
    expect(a).to.not.include('ofx_cs_example');
  });

  it('verifies the right secret and refuses any other', async () => {
    const stored = await hashSecret('ofx_cs_example');
    expect(await verifySecret('ofx_cs_example', stored)).to.equal(true);
    expect(await verifySecret('ofx_cs_exampl', stored)).to.equal(false);
    expect(await verifySecret('', stored)).to.equal(false);
    expect(await verifySecret('ofx_cs_example', 'garbage')).to.equal(false);
  });
});
