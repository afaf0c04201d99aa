// SMART v2 scopes: each R4 type the view serves has its `system/<Type>.rs`, meaning the API
// scope the view checks for that type; asking one type's scope grants its group, and the
// stated scope names the whole group, so no grant is wider than what the client is told.
import { expect } from 'chai';
import { echoedScope, readRequestedScopes, SMART_SCOPE_ALIASES } from '../../src/auth/smart-scopes.js';
import { R4_TYPES } from '../../src/resources/r4/r4-types.js';

describe('SMART v2 scopes', () => {
  it('has an alias for every R4 type, meaning the scope the R4 view checks for it, and none for other types', () => {
    expect(Object.fromEntries(R4_TYPES.map((t) => [`system/${t.type}.rs`, t.scope]))).to.deep.equal(SMART_SCOPE_ALIASES);
  });

  it('grants the API scope of the types asked', () => {
    expect(readRequestedScopes(['system/Observation.rs', 'system/Patient.rs', 'clinical.read'])).to.deep.equal({ ok: true, scopes: ['clinical.read', 'residents.read'] });
  });

  it('states every type of each group granted, in the order asked, once each', () => {
    expect(echoedScope(['system/Patient.rs', 'system/Condition.rs', 'coverage.read'])).to.equal(
      'system/Patient.rs system/Observation.rs system/AllergyIntolerance.rs system/Condition.rs system/ServiceRequest.rs system/MedicationRequest.rs system/DiagnosticReport.rs coverage.read',
    );
    expect(echoedScope(['system/Coverage.rs', 'system/CoverageEligibilityResponse.rs'])).to.equal('system/Coverage.rs system/CoverageEligibilityResponse.rs');
  });

  it('refuses what it does not know: other verbs, wildcards, user or patient scopes', () => {
    for (const scope of ['system/Patient.read', 'system/*.rs', 'patient/Observation.rs', 'system/Consent.rs']) {
      const reading = readRequestedScopes([scope]);
      expect(reading.ok, scope).to.equal(false);
    }
  });
});
