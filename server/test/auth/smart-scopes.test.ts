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

  it('refuses user and patient scopes, unknown types and unknown words, saying what to ask instead', () => {
    expect(refusal('patient/Observation.rs').reason).to.contain('ask system/Observation.rs');
    expect(refusal('user/*.read').reason).to.contain('SMART Backend Services');
    expect(refusal('system/Consent.rs').reason).to.contain('Consent is not a type ofctx serves');
    expect(refusal('system/patient.rs').reason).to.contain('patient is not a type');
    expect(refusal('admin launch system/Patient.rs').reason).to.equal('unknown scopes: admin launch');
  });

  describe('granular scopes', () => {
    const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
    const VITALS = `system/Observation.rs?category=${CATEGORY}|vital-signs`;
    const LAB = `system/Observation.rs?category=${CATEGORY}|laboratory`;
    const vitals = [{ param: 'category', tokens: [{ system: CATEGORY, code: 'vital-signs' }] }];
    const HIDDEN_CLINICAL = { AllergyIntolerance: [], Condition: [], ServiceRequest: [], MedicationRequest: [], DiagnosticReport: [] };

    it('grants the type restricted to its search, and no other type of its group, stating the scope as asked', () => {
      expect(granted(VITALS)).to.deep.equal({
        ok: true,
        granted: ['clinical.read:read', 'clinical.read:search'],
        stated: VITALS,
        restrictions: { Observation: [vitals], ...HIDDEN_CLINICAL },
      });
    });

    it('reads v1 and v2 subsets, drops c, u and d, and states the permissions granted with the query as written', () => {
      expect(granted('system/Observation.cruds?category=vital-signs')).to.deep.include({ stated: 'system/Observation.rs?category=vital-signs' });
      expect(granted('system/Observation.r?code=http://loinc.org|8867-4')).to.deep.include({ granted: ['clinical.read:read'], stated: 'system/Observation.r?code=http://loinc.org|8867-4' });
      expect(granted('system/Observation.read?category=laboratory').restrictions).to.deep.include({ Observation: [[{ param: 'category', tokens: [{ code: 'laboratory' }] }]] });
      expect(refusal('system/Observation.cud?category=laboratory').reason).to.contain('grants only reading and searching');
    });

    it('ORs several granular scopes of one type, and ANDs the parameters of one', () => {
      const grant = granted(`${VITALS} ${LAB} system/Observation.rs?category=laboratory&code=http://loinc.org|2345-7`);
      expect(grant.restrictions!.Observation).to.deep.equal([
        vitals,
        [{ param: 'category', tokens: [{ system: CATEGORY, code: 'laboratory' }] }],
        [
          { param: 'category', tokens: [{ code: 'laboratory' }] },
          { param: 'code', tokens: [{ system: 'http://loinc.org', code: '2345-7' }] },
        ],
      ]);
      expect(grant.stated.split(' ')).to.have.length(3);
    });

    it('lets a plain scope naming the type win, and a plain scope of another type of the group bring the rest of the group whole', () => {
      expect(granted(`${VITALS} system/Observation.rs`)).to.deep.include({ stated: clinical('rs'), restrictions: null });
      // The granular scope's permissions still count, stated without its query.
      expect(granted(`${VITALS} system/*.s`)).to.deep.include({ stated: 'system/Observation.rs system/*.s', restrictions: null });
      expect(granted(`clinical.read ${VITALS}`)).to.deep.include({ stated: 'clinical.read system/Observation.rs', restrictions: null });
      const mixed = granted(`${VITALS} system/Condition.s`);
      expect(mixed.restrictions).to.deep.equal({ Observation: [vitals] });
      expect(mixed.stated).to.equal(`${VITALS} ${CLINICAL_TYPES.filter((t) => t !== 'Observation').map((t) => `system/${t}.s`).join(' ')}`);
    });

    it('restricts Patient by identifier and active, Condition and DiagnosticReport by category, each in its own group', () => {
      expect(granted('system/Patient.rs?identifier=urn:oid:2.16.840.1.113883.4.927|1EG4TE5MK72').restrictions).to.deep.equal({
        Patient: [[{ param: 'identifier', tokens: [{ system: 'urn:oid:2.16.840.1.113883.4.927', code: '1EG4TE5MK72' }] }]],
      });
      expect(granted('system/Patient.rs?active=true').restrictions).to.deep.equal({ Patient: [[{ param: 'active', tokens: [{ code: 'true' }] }]] });
      expect(granted('system/Condition.rs?category=problem-list-item system/Patient.rs').restrictions).to.deep.equal({
        Condition: [[{ param: 'category', tokens: [{ code: 'problem-list-item' }] }]],
        Observation: [], AllergyIntolerance: [], ServiceRequest: [], MedicationRequest: [], DiagnosticReport: [],
      });
      expect(granted('system/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB').stated).to.equal('system/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB');
    });

    it('reads percent-encoded values and several values of one parameter as any of them', () => {
      expect(granted('system/Observation.rs?category=http%3A%2F%2Fterminology.hl7.org%2FCodeSystem%2Fobservation-category%7Cvital-signs').restrictions!.Observation).to.deep.equal([vitals]);
      expect(granted('system/Observation.rs?category=vital-signs,laboratory').restrictions!.Observation).to.deep.equal([[{ param: 'category', tokens: [{ code: 'vital-signs' }, { code: 'laboratory' }] }]]);
    });

    it('refuses malformed ones with invalid_scope naming the fix', () => {
      const cases: Array<[string, string]> = [
        ['system/Observation.rs?', 'nothing follows ?; write system/Observation.rs?<parameter>=<system>|<code>'],
        ['system/Observation.rs?foo=bar', 'foo is not a search parameter of Observation ofctx supports; a granular Observation scope takes category, code, status'],
        ['system/Observation.rs?date=2026', 'date is a date parameter, and granular scopes take token parameters'],
        ['system/Observation.rs?patient=abc', 'patient is a reference parameter'],
        ['system/Patient.rs?name=Smith', 'name is a string parameter'],
        ['system/Observation.rs?_id=abc', 'is a resource id parameter'],
        ['system/Observation.rs?category', 'category has no value'],
        ['system/Observation.rs?category=', 'category has no value'],
        ['system/Observation.rs?category=%E0%A4%A', "category's value is not valid percent-encoding"],
        ['system/Observation.rs?category=|', 'category has an empty value'],
        ['system/Observation.rs?category=a,,b', 'category has an empty value'],
        ['system/Observation.rs?category:not=laboratory', 'search modifiers (category:not) are not supported'],
        ['system/Patient.rs?active=maybe', 'active is true or false'],
        ['system/*.rs?category=laboratory', 'a granular scope names one type'],
        ['system/CoverageEligibilityResponse.rs?patient=x', 'CoverageEligibilityResponse has no token search parameter to restrict it by; ask system/CoverageEligibilityResponse.rs'],
      ];
      for (const [scope, reason] of cases) {
        const refused = refusal(scope);
        expect(refused.problem, scope).to.equal('invalid');
        expect(refused.reason, scope).to.contain(reason);
      }
    });

    it('is beyond the grant of a client not holding the type\'s scope', () => {
      expect(refusal(VITALS, ['residents.read'])).to.include({ problem: 'exceeds' });
    });
  });

  it('grants webhooks.manage for system/Subscription.cruds and system/Subscription.* (managing FHIR Subscriptions), and refuses a part of it', () => {
    const held = ['clinical.read', 'webhooks.manage'];
    expect(grantOf(['system/Subscription.cruds'], held)).to.deep.equal({ ok: true, granted: ['webhooks.manage'], stated: 'system/Subscription.cruds', restrictions: null });
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
    expect(supported).to.include('system/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs');
    for (const scope of supported.filter((s) => s.startsWith('system/'))) expect(grantOf([scope], ALL_READ).ok, scope).to.equal(true);
  });
});
