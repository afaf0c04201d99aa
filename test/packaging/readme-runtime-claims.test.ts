// A README claims only what CI tests: the runtimes the SDK's and the verifier's READMEs name
// are those the runtime matrix (test/runtimes, run by .ci/run) runs them on, and runtimes it
// does not run appear only where the README says they are not tested.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE } from '../support/packed-package.js';
import { RUNTIMES, TESTED_CLAIMS } from '../runtimes/runtimes.js';

const UNTESTED = /\b(Vercel|Netlify|Firefox|Safari|edge runtime|Node 16|Node 19|Node 21|Node 23)\b/;
const readme = (name: string) => readFileSync(join(WORKSPACE, name, 'README.md'), 'utf8');

describe('README runtime claims', () => {
  it('the matrix runs every runtime the READMEs name', () => {
    expect([...RUNTIMES]).to.deep.equal(['node18', 'node20', 'node22', 'node24', 'bun', 'deno', 'workerd', 'chromium']);
  });

  for (const name of ['sdk', 'verifier'] as const) {
    it(`${name}/README.md opens with exactly the runtimes CI tests`, () => {
      const text = readme(name);
      expect(text.slice(0, 1200)).to.include(TESTED_CLAIMS[name]);
      expect(text).not.to.match(/Node 18\+|Node 18 or later|any runtime with `fetch`/);
    });

    it(`${name}/README.md names untested runtimes only as untested`, () => {
      const offending = readme(name)
        .split(/\n\s*\n/)
        .filter((paragraph) => UNTESTED.test(paragraph) && !/not tested/.test(paragraph));
      expect(offending).to.deep.equal([]);
    });
  }
});
