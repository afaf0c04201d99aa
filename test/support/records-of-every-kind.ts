// A tenant holding a record of every kind the contract names in a path (resident, coverage,
// clinical records, a webhook subscription and its delivery, a FHIR Subscription, an event, a
// 271's CoverageEligibilityResponse, a finished $export, a stored message), with a console
// session: what a test walking every operation of the contract needs to fill its paths.
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import { applyEligibility } from '../../server/src/x12/eligibility-applier.js';
import { call, tokenFor } from './http.js';
import { createClient } from '../../server/src/auth/clients.js';
import type { TestService } from './service.js';
import { seedTenants, type Tenants } from './tenants.js';
import { interchange271 } from './x12.js';
import { diagnosticReport } from './fhir-resources.js';
import { consoleLinkToken, signInToConsole } from './console.js';

export interface RecordsOfEveryKind {
  t: Tenants;
  /** Ids of records of org A's facility a1, by table, all of one resident (and `subscription`, `event`, `job`...). */
  ids: Record<string, string>;
  /** A console session of org A (its cookie), and the CSRF token its forms carry. */
  consoleCookie: string;
  csrfToken: string;
  /** A token of org A's system of record for a1 (ingest.write). */
  ingestToken: string;
  /** A path of `template` (the contract's) naming real records of org A's facility a1. */
  concrete(template: string): string;
}

const RECORD_OF_SEGMENT: Record<string, string> = {
  Patient: 'residents',
  residents: 'residents',
  coverage: 'coverage',
  Coverage: 'coverage',
  Observation: 'observations',
  AllergyIntolerance: 'allergies',
  CoverageEligibilityResponse: 'eligibility',
  Condition: 'conditions',
  ServiceRequest: 'service_requests',
  MedicationRequest: 'medication_requests',
  DiagnosticReport: 'diagnostic_reports',
  webhooks: 'subscription',
  Subscription: 'fhirSubscription',
  Basic: 'topic',
  deliveries: 'delivery',
  subscriptions: 'subscription',
};

export async function seedRecordsOfEveryKind(service: TestService): Promise<RecordsOfEveryKind> {
  const t = await seedTenants(service, 2);
  const ids: Record<string, string> = {};
  const db = service.running.app.db;
  // Every record named is one resident's (one with an allergy: not every seeded resident has
  // one), so a test can hide that resident and know which records go with it.
  ids.residents = (await db('allergies').where({ facility_id: t.a1 }).orderBy('id').first('resident_id')).resident_id;
  for (const table of ['coverage', 'observations', 'allergies']) ids[table] = (await db(table).where({ facility_id: t.a1, resident_id: ids.residents }).orderBy('id').first('id')).id;
  // The seed writes no diagnoses or orders: one of each, through the ingest road.
  const subject = { reference: `Patient/${ids.residents}` };
  const code = { coding: [{ system: 'http://loinc.org', code: '24725-4', display: 'CT Head' }] };
  const written = await applyChangeSet(db, {
    orgId: t.orgA,
    facilityId: t.a1,
    mode: 'transaction',
    actor: 'test',
    emitEvents: false,
    changes: [
      { resource: { resourceType: 'Condition', subject, code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10' }] } }, at: 'Condition' },
      { resource: { resourceType: 'ServiceRequest', subject, code, status: 'active', intent: 'order' }, at: 'ServiceRequest' },
      { resource: { resourceType: 'MedicationRequest', subject, medicationCodeableConcept: code, status: 'active', intent: 'order' }, at: 'MedicationRequest' },
      { resource: diagnosticReport(subject, 'EVERY-KIND-REPORT', { basedOn: undefined }), at: 'DiagnosticReport' },
    ],
  });
  for (const [i, table] of ['conditions', 'service_requests', 'medication_requests', 'diagnostic_reports'].entries()) ids[table] = (written.outcomes[i] as { id: string }).id;
  const registered = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${t.orgA}/webhooks`, { token: t.fullToken, json: { callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted'] } });
  ids.subscription = registered.body.data.id;
  const fhirSubscription = {
    resourceType: 'Subscription',
    status: 'requested',
    reason: 'every kind of record',
    criteria: 'https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted',
    channel: { type: 'rest-hook', endpoint: 'http://127.0.0.1:9/fhir-hooks', payload: 'application/fhir+json' },
  };
  const created = await call(service.baseUrl, 'POST', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Subscription`, { token: t.fullToken, headers: { 'content-type': 'application/fhir+json' }, rawBody: JSON.stringify(fhirSubscription) });
  ids.fhirSubscription = created.body.id;
  ids.topic = 'resident-admitted';
  ids.event = (await service.running.webhooks.emitEvent({ orgId: t.orgA, facilityId: t.a1, type: 'resident.admitted', residentId: ids.residents! })).event_id;
  // A 271's CoverageEligibilityResponse, and a completed $export with its file.
  await applyEligibility(db, interchange271([{ trace: ids.coverage!, memberId: 'M', eligibility: ['1'] }]), { orgId: t.orgA, facilityId: t.a1, actor: 'test' });
  ids.eligibility = (await db('eligibility_responses').where({ facility_id: t.a1 }).first('id')).id;
  const kickOff = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/$export?_type=Patient`, { token: t.fullToken, headers: { prefer: 'respond-async' } });
  ids.job = kickOff.headers.get('content-location')!.split('/').at(-1)!;
  while ((await call(service.baseUrl, 'GET', new URL(kickOff.headers.get('content-location')!).pathname, { token: t.fullToken })).status !== 200) await new Promise((r) => setTimeout(r, 50));
  // The console: a session of organization A, a delivery of its subscription, a stored message.
  const browser = await signInToConsole(service.baseUrl, await consoleLinkToken(db, t.orgA));
  const consoleCookie = browser.cookie;
  const csrfToken = await browser.csrfToken();
  const ingestToken = await tokenFor(service.baseUrl, await createClient(db, { orgId: t.orgA, facilityIds: [t.a1], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' }));
  ids.delivery = (await db('webhook_deliveries').where({ subscription_id: ids.subscription }).first('id')).id;
  const store = service.running.app.messages;
  const source = { client_id: null, peer: null, sending_application: null, sending_facility: null };
  const stored = store.row({ road: 'fhir', format: 'fhir-bundle', orgId: t.orgA, facilityId: t.a1, source, messageType: 'Bundle', controlId: null, content: '{}' }, { status: 'refused', answer: { code: '400', errors: [] }, records: [] });
  await store.insert(db, [stored]);
  ids.message = stored.id;

  const concrete = (template: string): string => {
    const parts = template.split('/');
    return parts
      .map((part, i) => {
        if (part === '{org_id}') return t.orgA;
        if (part === '{facility_id}') return t.a1;
        if (part === '{event_id}') return ids.event;
        if (part === '{job_id}') return ids.job;
        if (part === '{file}') return 'Patient.ndjson';
        if (part === '{name}') return 'console.css';
        if (part === '{delivery_id}') return ids.delivery;
        if (part === '{message_id}') return ids.message;
        if (part === '{group_id}') return t.a1;
        if (/^\{.+\}$/.test(part)) return ids[RECORD_OF_SEGMENT[parts[i - 1]!] ?? ''] ?? part;
        return part;
      })
      .join('/');
  };
  return { t, ids, consoleCookie, csrfToken, ingestToken, concrete };
}
