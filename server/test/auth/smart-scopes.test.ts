// SMART system scopes, v1 and v2: each R4 type the view serves and `*`, read as grants of
// the API's read scopes (whole, or their read-by-id or search half); c, u, d and write
// dropped, or refused when nothing else is asked; the stated scope in the client's syntax,
// naming every type granted.
import { expect } from 'chai';
import { grantOf, SMART_TYPE_SCOPES, supportedScopes } from '../../src/auth/smart-scopes.js';
import { R4_TYPES } from '../../src/resources/r4/r4-types.js';

const ALL_READ = ['residents.read', 'coverage.read', 'clinical.read'];
const CLINICAL_TYPES = ['Observation', 'AllergyIntolerance', 'Condition', 'ServiceRequest', 'MedicationRequest', 'DiagnosticReport'];
const clinical = (permission: string) => CLINICAL_TYPES.map((type) => `system/${type}.${permission}`).join(' ');

function granted(asked: string, held: string[] = ALL_READ) {
  const grant = grantOf(asked.split(' '), held);
  if (!grant.ok) throw new Error(`refused: ${grant.reason}`);
  return grant;
}

function refusal(asked: string, held: string[] = ALL_READ) {
  const grant = grantOf(asked.split(' '), held);
  if (grant.ok) throw new Error(`granted: ${grant.stated}`);
  return grant;
}

describe('SMART system scopes', () => {
  it('knows every R4 type the view serves, with the scope the R4 view checks for it, and no other type', () => {
    expect(Object.fromEntries(R4_TYPES.map((t) => [t.type, t.scope]))).to.deep.equal(SMART_TYPE_SCOPES);
  });

  describe('v2 (letters of cruds)', () => {
    it('grants rs as the whole API scope of the type, stating every type of its group', () => {
      expect(granted('system/Observation.rs')).to.deep.include({ granted: ['clinical.read:read', 'clinical.read:search'], stated: clinical('rs') });
    });

    it('grants r alone as the read-by-id half and s alone as the search half', () => {
      expect(granted('system/Patient.r')).to.deep.include({ granted: ['residents.read:read'], stated: 'system/Patient.r' });
      expect(granted('system/Coverage.s')).to.deep.include({
        granted: ['coverage.read:search'],
        stated: 'system/Coverage.s system/CoverageEligibilityResponse.s',
      });
    });

    it('drops c, u and d from what it grants and states', () => {
      expect(granted('system/Patient.cruds')).to.deep.include({ granted: ['residents.read:read', 'residents.read:search'], stated: 'system/Patient.rs' });
      expect(granted('system/Patient.cr').stated).to.equal('system/Patient.r');
      expect(granted('system/Patient.ds').stated).to.equal('system/Patient.s');
    });

    it('refuses a scope asking only c, u or d, saying ofctx grants reads and searches', () => {
      for (const scope of ['system/Patient.c', 'system/Observation.cud', 'system/*.d']) {
        expect(refusal(scope), scope).to.include({ problem: 'invalid' });
        expect(refusal(scope).reason, scope).to.contain('grants only reading and searching');
      }
    });

    it('refuses letters out of the cruds order or outside it', () => {
      for (const scope of ['system/Patient.sr', 'system/Patient.rr', 'system/Patient.x', 'system/Patient.']) {
        expect(refusal(scope).reason, scope).to.contain('is not a SMART permission');
      }
    });
  });

  describe('v1 (read, write, *)', () => {
    it('grants read as reading and searching, stated as read', () => {
      expect(granted('system/Observation.read')).to.deep.include({ granted: ['clinical.read:read', 'clinical.read:search'], stated: clinical('read') });
    });

    it('grants * as read, and refuses write alone', () => {
      expect(granted('system/Patient.*')).to.deep.include({ stated: 'system/Patient.read' });
      expect(refusal('system/Patient.write').reason).to.contain('grants only reading and searching');
    });
  });

  describe('the wildcard type', () => {
    it('grants every read scope the client holds, stated as system/* when that is all of them', () => {
      expect(granted('system/*.rs')).to.deep.include({ stated: 'system/*.rs' });
      expect(granted('system/*.read').granted).to.have.members(ALL_READ.flatMap((scope) => [`${scope}:read`, `${scope}:search`]));
      expect(granted('system/*.*').stated).to.equal('system/*.read');
    });

    it('states the types granted when the client holds only some read scopes', () => {
      expect(granted('system/*.rs', ['clinical.read', 'webhooks.manage'])).to.deep.include({ granted: ['clinical.read:read', 'clinical.read:search'], stated: clinical('rs') });
      expect(granted('system/*.s', ['residents.read']).stated).to.equal('system/Patient.s');
    });

    it('is beyond the grant of a client holding no read scope', () => {
      expect(refusal('system/*.rs', ['webhooks.manage'])).to.include({ problem: 'exceeds' });
    });
  });

  it('mixes with API scopes, granting the union and stating each in the order asked, once', () => {
    expect(granted('system/Patient.r coverage.read system/Patient.rs')).to.deep.include({
      granted: ['residents.read:read', 'coverage.read', 'residents.read:search'],
      stated: 'system/Patient.r coverage.read system/Patient.rs',
    });
  });

  it('answers exceeds for a type whose scope the client does not hold', () => {
    expect(refusal('system/Patient.rs', ['clinical.read'])).to.deep.equal({ problem: 'exceeds', ok: false, reason: 'this client does not hold system/Patient.rs' });
  });

  it('refuses user and patient scopes, unknown types, granular scopes and unknown words, saying what to ask instead', () => {
    expect(refusal('patient/Observation.rs').reason).to.contain('ask system/Observation.rs');
    expect(refusal('user/*.read').reason).to.contain('SMART Backend Services');
    expect(refusal('system/Consent.rs').reason).to.contain('Consent is not a type ofctx serves');
    expect(refusal('system/patient.rs').reason).to.contain('patient is not a type');
    expect(refusal('system/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs').reason).to.contain(
      'granular scopes (restricted by a search such as ?category=...) are not supported yet; ask system/Observation.rs without the restriction',
    );
    expect(refusal('admin launch system/Patient.rs').reason).to.equal('unknown scopes: admin launch');
  });

  it('grants webhooks.manage for system/Subscription.cruds and system/Subscription.* (managing FHIR Subscriptions), and refuses a part of it', () => {
    const held = ['clinical.read', 'webhooks.manage'];
    expect(grantOf(['system/Subscription.cruds'], held)).to.deep.equal({ ok: true, granted: ['webhooks.manage'], stated: 'system/Subscription.cruds' });
    const mixed = grantOf(['system/Subscription.*', 'system/Observation.rs'], held) as { ok: true; granted: string[]; stated: string };
    expect(mixed.granted).to.include.members(['webhooks.manage', 'clinical.read:read', 'clinical.read:search']);
    expect(mixed.stated.split(' ').slice(0, 2)).to.deep.equal(['system/Subscription.*', 'system/Observation.rs']);
    const partial = grantOf(['system/Subscription.rs'], held);
    expect(partial.ok).to.equal(false);
    expect((partial as { reason: string }).reason).to.contain('ask system/Subscription.cruds');
    expect(grantOf(['system/Subscription.cruds'], ['clinical.read'])).to.deep.include({ ok: false, problem: 'exceeds' });
    expect(supportedScopes(['clinical.read', 'webhooks.manage'])).to.include.members(['system/Subscription.cruds', 'system/Subscription.*']);
    expect(supportedScopes(['clinical.read'])).not.to.include('system/Subscription.cruds');
  });

  it('lists each read form per type and for all types, then the API scopes', () => {
    const supported = supportedScopes(['clinical.read']);
    expect(supported).to.include.members(['system/*.rs', 'system/*.read', 'system/*.r', 'system/*.s', 'system/Observation.rs', 'system/Patient.read', 'clinical.read']);
    for (const scope of supported.filter((s) => s.startsWith('system/'))) expect(grantOf([scope], ALL_READ).ok, scope).to.equal(true);
  });
});
