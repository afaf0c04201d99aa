// Bad input at the ingest endpoint never breaks the service and never half-writes: hundreds
// of generated malformed FHIR Bundles (transaction and batch) and NDJSON lines, each made of
// good resources and resources broken in one known way (invalid FHIR, values ofctx cannot
// store, references to unknown residents or to another facility or organization, NUL,
// oversize values, bad requests, bodies that are not Bundles at all). Every answer: no 5xx,
// valid against the contract, an OperationOutcome on failure. Every write checked: a refused
// transaction leaves no trace, a batch or NDJSON writes exactly its good parts.
//   INGEST_FUZZ_SEED=7 INGEST_FUZZ_BUNDLES=600 INGEST_FUZZ_NDJSON=300 npm run test:reliability
import { expect } from 'chai';
import fc from 'fast-check';
import { createClient } from '../../server/src/auth/clients.js';
import { figures } from './support/figures.js';
import { bearer, checkedSend, issueToken, suiteService } from './support/suite.js';
import { rememberSecret } from './support/secrets.js';
import type { TestService } from '../support/service.js';
import { bundle, ingestPath } from '../support/ingest.js';
import { coverage, MRN, observation, patient } from '../support/fhir-resources.js';

const SEED = Number(process.env.INGEST_FUZZ_SEED ?? 20261123);
const BUNDLES = Number(process.env.INGEST_FUZZ_BUNDLES ?? 500);
const NDJSON_BODIES = Number(process.env.INGEST_FUZZ_NDJSON ?? 170);

interface World {
  service: TestService;
  org: string;
  facility: string;
  token: string;
  /** MRN of a resident of this facility, of another facility of the org, of another org. */
  here: string;
  elsewhereId: string;
  foreignId: string;
}

/** A resource broken in one way that must get it rejected, and why. */
type Breaker = (resource: Record<string, any>, w: World) => Record<string, any>;

const PATIENT_BREAKERS: Array<[string, Breaker]> = [
  ['impossible birth date', (r) => ({ ...r, birthDate: '1941-02-30' })],
  ['partial birth date', (r) => ({ ...r, birthDate: '1941' })],
  ['birth date not a string', (r) => ({ ...r, birthDate: 19410317 })],
  ['gender outside the value set', (r) => ({ ...r, gender: 'robot' })],
  ['no family name', (r) => ({ ...r, name: [{ given: ['Ada'] }] })],
  ['unknown element', (r) => ({ ...r, favouriteColour: 'blue' })],
  ['active not a boolean', (r) => ({ ...r, active: 'yes' })],
  ['NUL in a name', (r) => ({ ...r, name: [{ use: 'official', family: 'Nul\u0000l', given: [] }] })],
  ['identifier value too long', (r) => ({ ...r, identifier: [r.identifier[0], { system: 'https://x.example', value: 'v'.repeat(400) }] })],
  ['name not an array', (r) => ({ ...r, name: { family: 'Okafor' } })],
  ['unsupported resourceType', (r) => ({ ...r, resourceType: 'Encounter' })],
];

const COVERAGE_BREAKERS: Array<[string, Breaker]> = [
  ['status outside the value set', (r) => ({ ...r, status: 'bogus' })],
  ['unknown resident', (r) => ({ ...r, beneficiary: { reference: 'Patient/00000000-0000-4000-8000-000000000000' } })],
  ['resident of another facility', (r, w) => ({ ...r, beneficiary: { reference: `Patient/${w.elsewhereId}` } })],
  ['resident of another organization', (r, w) => ({ ...r, beneficiary: { reference: `Patient/${w.foreignId}` } })],
  ['reference to a non-Patient', (r) => ({ ...r, beneficiary: { reference: 'Practitioner/12' } })],
  ['dangling urn:uuid', (r) => ({ ...r, beneficiary: { reference: 'urn:uuid:11111111-2222-4333-8444-555555555555' } })],
  ['no subscriberId', (r) => { const { subscriberId: _s, ...rest } = r; return rest; }],
  ['order zero', (r) => ({ ...r, order: 0 })],
  ['period start not a date', (r) => ({ ...r, period: { start: 'next week' } })],
];

const OBSERVATION_BREAKERS: Array<[string, Breaker]> = [
  ['effective date without time', (r) => ({ ...r, effectiveDateTime: '2026-01-31' })],
  ['value not a number', (r) => ({ ...r, valueQuantity: { value: 'seventy', unit: '/min' } })],
  ['no value', (r) => { const { valueQuantity: _v, ...rest } = r; return rest; }],
  ['no coding', (r) => ({ ...r, code: { text: 'heart rate' } })],
  ['status outside the value set', (r) => ({ ...r, status: 'done' })],
];

const ENTRY_BREAKERS: Array<[string, (entry: Record<string, any>) => unknown]> = [
  ['entry not an object', () => 'Patient'],
  ['entry without resource', (e) => ({ request: e.request })],
  ['entry without request', (e) => ({ resource: e.resource })],
  ['DELETE', (e) => ({ ...e, request: { method: 'DELETE', url: e.request.url } })],
  // Of another type than the entry's own: an Observation conditionally updated as an Observation is a good entry.
  ['url of another type', (e) => ({ ...e, request: { method: 'PUT', url: `${e.resource.resourceType === 'Observation' ? 'Coverage' : 'Observation'}?identifier=${MRN}|x` } })],
  ['conditional update on a non-identifier search', (e) => ({ ...e, request: { method: 'PUT', url: `${e.resource.resourceType}?name=Okafor` } })],
  ['update of an id that is not a UUID', (e) => ({ ...e, request: { method: 'PUT', url: `${e.resource.resourceType}/abc` } })],
];

const BODY_BREAKERS: Array<[string, (text: string) => string]> = [
  ['truncated JSON', (t) => t.slice(0, Math.max(1, Math.floor(t.length / 2)))],
  ['not a Bundle', () => JSON.stringify({ resourceType: 'Patient' })],
  ['Bundle of type collection', (t) => t.replace(/"type":"(transaction|batch)"/, '"type":"collection"')],
  ['entry not an array', () => JSON.stringify({ resourceType: 'Bundle', type: 'batch', entry: { resource: {} } })],
  ['a JSON array', () => '[]'],
  ['empty', () => ''],
];

async function buildWorld(service: TestService): Promise<World> {
  const db = service.running.app.db;
  const org = (await service.seed.org('Ingest fuzz org')).id;
  const facility = (await service.seed.facility(org, 'Fuzzed')).id;
  const elsewhere = (await service.seed.facility(org, 'Elsewhere')).id;
  const otherOrg = (await service.seed.org('Ingest fuzz foreign org')).id;
  const foreignFacility = (await service.seed.facility(otherOrg, 'Foreign')).id;
  const source = await createClient(db, { orgId: org, facilityIds: [facility], scopes: ['ingest.write'], name: 'fuzzed EHR', kind: 'ingest' });
  rememberSecret('client_secret', source.client_secret);
  const token = await issueToken(service, source);
  rememberSecret('access_token', token);
  const { applyChangeSet } = await import('../../server/src/ingest/apply-change-set.js');
  const put = async (orgId: string, facilityId: string, mrn: string) => {
    const result = await applyChangeSet(db, { orgId, facilityId, mode: 'batch', actor: 'fuzz-setup', emitEvents: false, changes: [{ resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: 'setup' }] });
    return (result.outcomes[0] as { id: string }).id;
  };
  await put(org, facility, 'HERE');
  return { service, org, facility, token, here: 'HERE', elsewhereId: await put(org, elsewhere, 'ELSEWHERE'), foreignId: await put(otherOrg, foreignFacility, 'FOREIGN') };
}

/** One generated part: a resource (good or broken) with the marker identifier it would be indexed under. */
interface Part {
  resource: Record<string, any>;
  marker: string;
  good: boolean;
  why: string;
}

const partArb = (w: World, n: () => number) =>
  fc.tuple(fc.constantFrom('Patient', 'Coverage', 'Observation'), fc.boolean(), fc.nat()).map(([type, good, pick]): Part => {
    const marker = `Z-${SEED}-${n()}`;
    const ref = { reference: `Patient?identifier=${MRN}|${w.here}` };
    const base = type === 'Patient' ? patient(marker) : type === 'Coverage' ? coverage(ref, marker) : observation(ref, marker);
    if (good) return { resource: base, marker, good, why: 'good' };
    const breakers = type === 'Patient' ? PATIENT_BREAKERS : type === 'Coverage' ? COVERAGE_BREAKERS : OBSERVATION_BREAKERS;
    const [why, breaker] = breakers[pick % breakers.length]!;
    return { resource: breaker(base as Record<string, any>, w), marker, good, why };
  });

async function markersWritten(w: World, markers: string[]): Promise<Set<string>> {
  const rows = (await w.service.running.app.db('resource_identifiers').where({ org_id: w.org }).whereIn('value', markers).pluck('value')) as string[];
  return new Set(rows);
}

function requestFor(part: Part) {
  const type = part.resource.resourceType as string;
  const system = type === 'Patient' ? MRN : (part.resource.identifier?.[0]?.system ?? MRN);
  return { method: 'PUT', url: `${['Patient', 'Coverage', 'Observation'].includes(type) ? type : 'Patient'}?identifier=${system}|${part.marker}` };
}

describe('ingest reliability: generated malformed Bundles and NDJSON', function () {
  this.timeout(600_000);
  let w: World;
  let counter = 0;
  const next = () => ++counter;

  before(async () => {
    w = await buildWorld(await suiteService());
  });

  const stored = async (road: string) => Number(((await w.service.running.app.db('inbound_messages').where({ road, org_id: w.org }).count({ n: '*' }).first()) as { n: number | string }).n);

  const post = async (contentType: string, body: string) => {
    const road = contentType.includes('ndjson') ? 'ndjson' : 'fhir';
    const before = await stored(road);
    const { res, failures } = await checkedSend(w.service, { method: 'POST', target: ingestPath(w.org, w.facility), headers: { ...bearer(w.token), 'content-type': contentType }, body });
    if (res.status >= 500) figures.ingest.responses5xx++;
    expect(failures, body.slice(0, 300)).to.deep.equal([]);
    // Every body answered is in the message store once, with its answer (issue 42); one over
    // INGEST_MAX_BUNDLE_BYTES (413) is not read, so not stored.
    const added = (await stored(road)) - before;
    const expected = res.status === 413 ? 0 : 1;
    if (added !== expected) figures.lost = (figures.lost ?? 0) + 1;
    expect(added, `stored for a ${res.status} answer`).to.equal(expected);
    if (expected) {
      const row = await w.service.running.app.db('inbound_messages').where({ road, org_id: w.org }).orderBy('seq', 'desc').first('answer_code', 'status');
      expect(row.answer_code).to.equal(String(res.status));
      expect(row.status === 'refused').to.equal(res.status >= 400);
    }
    return res;
  };

  it(`${BUNDLES} Bundles: a refused transaction writes nothing, a batch writes exactly its good entries`, async () => {
    const bundleArb = fc.record({
      type: fc.constantFrom<'transaction' | 'batch'>('transaction', 'batch'),
      parts: fc.array(partArb(w, next), { minLength: 1, maxLength: 6 }),
      entryBreak: fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 4 }),
      bodyBreak: fc.option(fc.nat(), { freq: 8 }),
    });
    const samples = fc.sample(bundleArb, { seed: SEED, numRuns: BUNDLES });
    for (const sample of samples) {
      // At least one bad part: every generated Bundle is malformed somewhere.
      if (sample.parts.every((p) => p.good) && sample.entryBreak === null && sample.bodyBreak === null) {
        const [why, breaker] = PATIENT_BREAKERS[sample.parts.length % PATIENT_BREAKERS.length]!;
        const marker = `Z-${SEED}-${next()}`;
        sample.parts.push({ resource: breaker(patient(marker), w), marker, good: false, why });
      }
      const value = bundle(sample.type, sample.parts.map((p) => ({ resource: p.resource, request: requestFor(p) })));
      const brokenEntry = sample.entryBreak ? sample.entryBreak[0] % value.entry.length : -1;
      if (sample.entryBreak) {
        const [, which] = sample.entryBreak;
        (value.entry as unknown[])[brokenEntry] = ENTRY_BREAKERS[which % ENTRY_BREAKERS.length]![1](value.entry[brokenEntry] as Record<string, any>);
      }
      let text = JSON.stringify(value);
      const bodyBroken = sample.bodyBreak !== null;
      if (bodyBroken) text = BODY_BREAKERS[sample.bodyBreak! % BODY_BREAKERS.length]![1](text);
      const res = await post('application/fhir+json', text);
      figures.ingest.bundles++;
      const written = await markersWritten(w, sample.parts.map((p) => p.marker));
      const expectedWritten = bodyBroken || sample.type === 'transaction' ? [] : sample.parts.filter((p, i) => p.good && i !== brokenEntry).map((p) => p.marker);
      const partial = written.size !== expectedWritten.length || expectedWritten.some((m) => !written.has(m));
      if (partial) figures.ingest.partialWrites++;
      // Worded so that mocha, which cuts a message at ": expected" when it shows a diff, keeps it whole.
      expect(partial, `${sample.type} answered ${res.status}, should have written ${JSON.stringify(expectedWritten)} and wrote ${JSON.stringify([...written])}; parts ${sample.parts.map((p) => p.why).join(', ')}; answer ${JSON.stringify(res.body).slice(0, 1500)}`).to.equal(false);
      if (bodyBroken || sample.type === 'transaction') {
        expect([400, 413, 422]).to.include(res.status);
        expect(res.body?.resourceType).to.equal('OperationOutcome');
      } else {
        expect(res.status).to.equal(200);
        const statuses = (res.body.entry as Array<{ response: { status: string } }>).map((e) => e.response.status);
        sample.parts.forEach((p, i) => expect(/^20[01] /.test(statuses[i]!), `${p.why} at ${i}: ${statuses[i]}`).to.equal(p.good && i !== brokenEntry));
      }
    }
  });

  it(`${NDJSON_BODIES} NDJSON bodies: exactly the bad lines are rejected, exactly the good ones written`, async () => {
    const bodyArb = fc.array(fc.tuple(partArb(w, next), fc.nat(20)), { minLength: 3, maxLength: 10 });
    for (const lines of fc.sample(bodyArb, { seed: SEED + 1, numRuns: NDJSON_BODIES })) {
      const texts = lines.map(([part, roll]) => {
        if (!part.good && roll === 0) return '{"resourceType": "Patient", '; // truncated line
        if (!part.good && roll === 1) return JSON.stringify([part.resource]);
        return JSON.stringify(part.resource);
      });
      const res = await post('application/fhir+ndjson', texts.join('\n'));
      figures.ingest.lines += lines.filter(([p]) => !p.good).length;
      expect(res.status).to.equal(200);
      const rejectedLines = (res.body.rejected as Array<{ line: number }>).map((r) => r.line);
      expect(rejectedLines, lines.map(([p]) => p.why).join(', ')).to.deep.equal(lines.flatMap(([p], i) => (p.good ? [] : [i + 1])));
      const written = await markersWritten(w, lines.map(([p]) => p.marker));
      const expectedWritten = lines.filter(([p]) => p.good).map(([p]) => p.marker);
      const partial = written.size !== expectedWritten.length || expectedWritten.some((m) => !written.has(m));
      if (partial) figures.ingest.partialWrites++;
      expect(partial).to.equal(false);
    }
    expect(figures.ingest.lines).to.be.at.least(Math.min(500, NDJSON_BODIES * 2));
  });
});
