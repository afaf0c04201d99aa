// The hostile-request walk is split into groups, one file each (test/support/hostile-requests.ts):
// between them they walk every operation of the contract.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { contractOperations } from '../../../../test/support/contract-operations.js';
import { HOSTILE_GROUPS, hostileGroupOf } from '../../../../test/support/hostile-requests.js';

describe('the groups of the hostile-request walk', () => {
  const operations = contractOperations();

  it('each have operations to walk, every operation of the contract among them', () => {
    expect(operations.length).to.be.at.least(90);
    for (const group of HOSTILE_GROUPS) expect(operations.filter((op) => hostileGroupOf(op) === group), group).to.not.be.empty;
  });

  it('each are walked by a file of this folder', () => {
    const folder = dirname(fileURLToPath(import.meta.url));
    const walked = readdirSync(folder)
      .filter((name) => name.endsWith('.test.ts'))
      .flatMap((name) => [...readFileSync(`${folder}/${name}`, 'utf8').matchAll(/^describeHostileRequests\('([^']+)'\);$/gm)].map((m) => m[1]));
    expect([...walked].sort()).to.deep.equal([...HOSTILE_GROUPS].sort());
  });
});
