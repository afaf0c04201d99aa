import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { SDK_VERSION } from '../src/version.js';

describe('SDK_VERSION', () => {
  it('equals the version in sdk/package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).to.equal(pkg.version);
  });
});
