import { expect } from 'chai';
import { userAgentHeader } from '../src/user-agent.js';
import { SDK_VERSION } from '../src/version.js';

describe('userAgentHeader', () => {
  it('names the SDK version and the Node version', () => {
    expect(userAgentHeader(undefined)).to.equal(`ofctx-sdk-node/${SDK_VERSION} (node ${process.version})`);
  });

  it("appends the caller's suffix", () => {
    expect(userAgentHeader('acme-eligibility/2.3')).to.equal(`ofctx-sdk-node/${SDK_VERSION} (node ${process.version}) acme-eligibility/2.3`);
  });
});
