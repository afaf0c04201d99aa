import { expect } from 'chai';
import { operations } from '../src/operations.js';
import { loadOpenApiDocument } from '../src/openapi/openapi-document.js';

describe('the operation registry', () => {
  it('serves every operationId of the contract with exactly one handler', () => {
    const { document } = loadOpenApiDocument() as unknown as { document: { paths: Record<string, Record<string, { operationId?: string }>> } };
    const contractIds = Object.values(document.paths).flatMap((item) =>
      ['get', 'post', 'put', 'patch', 'delete'].flatMap((m) => (item[m]?.operationId ? [item[m]!.operationId!] : [])),
    );
    const served = [...Object.keys(operations.public), ...Object.keys(operations.secured)];
    expect(served.sort()).to.deep.equal([...contractIds].sort());
  });
});
