// A token's stored grant: API scopes whole, or a read scope's read-by-id or search half; a
// bare API scope (every token issued before the halves) keeps meaning both.
import { expect } from 'chai';
import { allows, formatGrant } from '../../src/tenancy/scope-grants.js';

describe('scope grants', () => {
  it('stores halves only when one is granted alone, in canonical order', () => {
    expect(formatGrant(['clinical.read:search', 'residents.read:read', 'residents.read:search', 'webhooks.manage'])).to.equal(
      'residents.read clinical.read:search webhooks.manage',
    );
    expect(formatGrant(['coverage.read', 'coverage.read:read'])).to.equal('coverage.read');
    expect(formatGrant(['coverage.read:read', 'nonsense', 'webhooks.manage:read'])).to.equal('coverage.read:read');
  });

  it('lets a whole scope do both interactions and a half only its own', () => {
    const granted = new Set(['residents.read', 'clinical.read:read']);
    expect(allows(granted, 'residents.read', 'read')).to.equal(true);
    expect(allows(granted, 'residents.read', 'search')).to.equal(true);
    expect(allows(granted, 'clinical.read', 'read')).to.equal(true);
    expect(allows(granted, 'clinical.read', 'search')).to.equal(false);
    expect(allows(granted, 'coverage.read', 'read')).to.equal(false);
  });
});
