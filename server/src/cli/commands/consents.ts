// `consent deny | lift | list`: a resident's privacy consent recorded by an operator, for a
// facility whose system of record cannot send FHIR Consent. Written as a FHIR R4 Consent
// through the one ingest road (applyChangeSet: versioned, in ingest_writes as ops-cli), with
// an identifier of its own per resident and purpose, so `lift` replaces the same Consent.
// Consents the system of record sent are changed by the system of record, not here.
import { applyChangeSet } from '../../ingest/apply-change-set.js';
import type { IngestResource } from '../../ingest/change-set.js';
import { isPurposeOfUse, PURPOSES_OF_USE } from '../../tenancy/access-policy.js';
import { required, uuidOption, UsageError, type CliContext, type Command, type ParsedArgs } from '../command.js';

export const OPS_CONSENT_SYSTEM = 'urn:ofctx:ops-consent';
const PURPOSE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ActReason';

function purposeOption(args: ParsedArgs): string {
  const purpose = required(args, 'purpose').toUpperCase();
  if (!isPurposeOfUse(purpose)) throw new UsageError(`--purpose must be an HL7 v3 PurposeOfUse code: ${PURPOSES_OF_USE.join(' ')}`);
  return purpose;
}

function consentOf(residentId: string, purpose: string, status: 'active' | 'inactive', until: string | undefined): IngestResource {
  return {
    resourceType: 'Consent',
    identifier: [{ system: OPS_CONSENT_SYSTEM, value: `${residentId}|${purpose}` }],
    status,
    scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
    category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0', display: 'Patient Consent' }] }],
    patient: { reference: `Patient/${residentId}` },
    dateTime: new Date().toISOString(),
    policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTOUT' }] },
    provision: { type: 'deny', purpose: [{ system: PURPOSE_SYSTEM, code: purpose }], ...(until ? { period: { end: until } } : {}) },
  };
}

async function write(args: ParsedArgs, cli: CliContext, status: 'active' | 'inactive') {
  const orgId = uuidOption(args, 'org');
  const residentId = uuidOption(args, 'resident');
  const purpose = purposeOption(args);
  const until = args.values.until as string | undefined;
  if (until !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(until) || Number.isNaN(Date.parse(`${until}T00:00:00Z`)))) throw new UsageError(`--until must be a date YYYY-MM-DD, got "${until}"`);
  const db = await cli.db();
  const resident = await db('residents').where({ id: residentId, org_id: orgId }).first('facility_id');
  if (!resident) throw new UsageError(`no resident ${residentId} in organization ${orgId}`);
  if (status === 'inactive' && !(await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Consent', system: OPS_CONSENT_SYSTEM, value: `${residentId}|${purpose}` }).first('resource_id'))) {
    throw new UsageError(`no consent recorded with "consent deny" for resident ${residentId} and purpose ${purpose}`);
  }
  const result = await applyChangeSet(db, {
    orgId,
    facilityId: resident.facility_id as string,
    mode: 'transaction',
    actor: 'ops-cli',
    emitEvents: true,
    changes: [{ resource: consentOf(residentId, purpose, status, until), at: 'consent' }],
  });
  const [outcome] = result.outcomes;
  if (!outcome || outcome.outcome === 'rejected') throw new UsageError(`the consent was refused: ${outcome?.outcome === 'rejected' ? outcome.issue.diagnostics : 'no outcome'}`);
  return { consent_id: outcome.id, resident_id: residentId, purpose, status, until: until ?? null, outcome: outcome.outcome, version_id: outcome.versionId };
}

const WRITE_OPTIONS = { org: { type: 'string' }, resident: { type: 'string' }, purpose: { type: 'string' }, until: { type: 'string' } } as const;

export const consentDeny: Command = {
  name: 'consent deny',
  summary: "Record a resident's refusal of a purpose of use (an active deny Consent): credentials of that purpose no longer see the resident.",
  usage: 'consent deny --org ORG --resident ID --purpose CODE [--until DATE] [--json]',
  options: WRITE_OPTIONS,
  run: (args, cli) => write(args, cli, 'active'),
  format: (r: { resident_id: string; purpose: string; until: string | null; outcome: string }) =>
    `resident ${r.resident_id}: ${r.purpose} denied${r.until ? ` until ${r.until} (inclusive)` : ''} (${r.outcome})`,
};

export const consentLift: Command = {
  name: 'consent lift',
  summary: 'Lift a refusal recorded with "consent deny" (its Consent becomes inactive): the resident is visible again.',
  usage: 'consent lift --org ORG --resident ID --purpose CODE [--json]',
  options: { org: WRITE_OPTIONS.org, resident: WRITE_OPTIONS.resident, purpose: WRITE_OPTIONS.purpose },
  run: (args, cli) => write(args, cli, 'inactive'),
  format: (r: { resident_id: string; purpose: string; outcome: string }) => `resident ${r.resident_id}: ${r.purpose} no longer denied (${r.outcome})`,
};

export const consentList: Command = {
  name: 'consent list',
  summary: "List an organization's consents (from the system of record and from consent deny), newest change first.",
  usage: 'consent list --org ORG [--resident ID] [--json]',
  options: { org: { type: 'string' }, resident: { type: 'string' } },
  async run(args, cli) {
    const orgId = uuidOption(args, 'org');
    const residentId = args.values.resident === undefined ? undefined : uuidOption(args, 'resident');
    const rows = (await (await cli.db())('consents')
      .where({ org_id: orgId, ...(residentId ? { resident_id: residentId } : {}) })
      .orderBy('last_updated', 'desc')
      .orderBy('id')
      .select('id', 'resident_id', 'facility_id', 'status', 'scope_code', 'decision', 'purposes', 'period_start', 'period_end', 'version_id', 'last_updated')) as Array<Record<string, unknown>>;
    return {
      consents: rows.map((row) => ({
        ...row,
        version_id: Number(row.version_id),
        purposes: row.purposes === '*' ? ['*'] : String(row.purposes).trim().split(' '),
      })),
    };
  },
  format: (r: { consents: Array<{ id: string; resident_id: string; status: string; decision: string | null; purposes: string[]; period_end: string | null }> }) =>
    r.consents.map((c) => `${c.id}  resident ${c.resident_id}  ${c.status.padEnd(8)} ${c.decision ?? '-'} ${c.purposes.join(' ')}${c.period_end ? `  until ${c.period_end}` : ''}`).join('\n') ||
    '(no consents)',
};
