import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SCOPES } from '../src/contract-types.js';

describe('SCOPES', () => {
  it('lists exactly the partner scopes of the OAuth security scheme in openapi.yaml', () => {
    const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8'));
    // ingest.write belongs to the facility's system of record, never to a partner credential.
    const scopes = Object.keys(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes).filter((s) => s !== 'ingest.write');
    expect([...SCOPES].sort()).to.deep.equal(scopes.sort());
  });
});
