import { expect } from 'chai';
import { errorCatalogue } from '../../src/errors/error-catalogue.js';
import { loadOpenApiDocument } from '../../src/openapi/openapi-document.js';

describe('the error catalogue', () => {
  it('has exactly the error codes of the contract', () => {
    const { document } = loadOpenApiDocument() as unknown as { document: { components: { schemas: { ErrorCode: { enum: string[] } } } } };
    expect(Object.keys(errorCatalogue).sort()).to.deep.equal([...document.components.schemas.ErrorCode.enum].sort());
  });

  it('gives every code a 4xx or 5xx status and a message', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(entry.status, code).to.be.within(400, 599);
      expect(entry.message, code).to.be.a('string').and.not.empty;
    }
  });
});
