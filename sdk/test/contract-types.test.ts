import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SCOPES } from '../src/contract-types.js';

describe('SCOPES', () => {
  it('lists exactly the scopes of the OAuth security scheme in openapi.yaml', () => {
    const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8'));
    const scopes = Object.keys(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes);
    expect([...SCOPES].sort()).to.deep.equal(scopes.sort());
  });
});
