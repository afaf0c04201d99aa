// What a request costs: 1, a page by its size, an $export kick-off what the contract says.
import { expect } from 'chai';
import type { Operation } from 'openapi-backend';
import { baseWeightOf, requestWeight } from '../../src/quotas/request-weight.js';
import { loadOpenApiDocument } from '../../src/openapi/openapi-document.js';

type AnyRecord = Record<string, any>;

describe('the weight of a request', () => {
  it('is 1 for a read, and a page costs one unit per 50 rows asked (page_size or _count)', () => {
    expect(requestWeight(1, {})).to.equal(1);
    expect(requestWeight(1, undefined)).to.equal(1);
    expect(requestWeight(1, { page_size: '50' })).to.equal(1);
    expect(requestWeight(1, { page_size: '51' })).to.equal(2);
    expect(requestWeight(1, { page_size: '200' })).to.equal(4);
    expect(requestWeight(1, { _count: '120' })).to.equal(3);
    expect(requestWeight(1, { _count: ['10', '200'] })).to.equal(4);
    expect(requestWeight(1, { page_size: 1 })).to.equal(1);
  });

  it('is the base weight for a page size validation will refuse', () => {
    expect(requestWeight(1, { page_size: 'lots' })).to.equal(1);
    expect(requestWeight(1, { page_size: '-5' })).to.equal(1);
    expect(requestWeight(1, { page_size: '0' })).to.equal(1);
    expect(requestWeight(1, { page_size: '99999' })).to.equal(1);
  });

  it('takes the contract x-ofctx-quota-weight: every $export kick-off costs 50, nothing else declares one', () => {
    const { document } = loadOpenApiDocument() as unknown as { document: AnyRecord };
    const weights: Record<string, number> = {};
    for (const item of Object.values(document.paths as AnyRecord)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const operation = item[method] as Operation | undefined;
        if (operation) weights[operation.operationId!] = baseWeightOf(operation);
      }
    }
    const heavy = Object.entries(weights).filter(([, weight]) => weight !== 1);
    expect(Object.fromEntries(heavy)).to.deep.equal({
      kickOffFhirExport: 50,
      kickOffFhirExportByPost: 50,
      kickOffFhirPatientExport: 50,
      kickOffFhirPatientExportByPost: 50,
      kickOffFhirGroupExport: 50,
      kickOffFhirGroupExportByPost: 50,
    });
    expect(requestWeight(50, { _count: '200' })).to.equal(50);
  });
});
