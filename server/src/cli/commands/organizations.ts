import type { Knex } from 'knex';
import { createFacility, createOrganization, findOrganization, hl7CodeProblem, setFacilityHl7Code, setFacilityNpi, type Hl7Facility } from '../../organizations/organizations.js';
import { npiProblem } from '../../eligibility/npi.js';
import { isUuid } from '../../db/uuid.js';
import { nameOption, uuidOption, UsageError, type Command } from '../command.js';

export const orgCreate: Command = {
  name: 'org create',
  summary: 'Create an organization.',
  usage: 'org create --name NAME [--json]',
  options: { name: { type: 'string' } },
  async run(args, cli) {
    return createOrganization(await cli.db(), nameOption(args, 'name'));
  },
  format: (o: { id: string; name: string }) => `organization ${o.id} (${o.name})`,
};

export const facilityCreate: Command = {
  name: 'facility create',
  summary: 'Create a facility of an organization.',
  usage: 'facility create --org ORG --name NAME [--hl7-code CODE] [--json]',
  options: { org: { type: 'string' }, name: { type: 'string' }, 'hl7-code': { type: 'string' } },
  async run(args, cli) {
    // Every argument checked before the database is touched.
    const orgId = uuidOption(args, 'org');
    const name = nameOption(args, 'name');
    const code = args.values['hl7-code'] === undefined ? undefined : hl7CodeOption(args.values['hl7-code']);
    if (code === null) throw new UsageError('--hl7-code is empty: leave it out for a facility without one');
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    // Checked before the facility is created, so a refused code leaves nothing behind.
    if (code !== undefined) await checkHl7CodeFree(db, code);
    const facility = await createFacility(db, orgId, name);
    if (code === undefined) return facility;
    return withHl7Code(db, facility.id, code);
  },
  format: (f: { id: string; name: string; org_id: string; hl7_code?: string | null }) => `facility ${f.id} (${f.name}) of organization ${f.org_id}${f.hl7_code ? `, HL7 code ${f.hl7_code}` : ''}`,
};

/** The code as typed (not trimmed: it is matched exactly, so stray spaces are refused, not guessed away); "" clears. */
function hl7CodeOption(raw: unknown): string | null {
  if (typeof raw !== 'string') throw new UsageError('--hl7-code is required');
  if (raw === '') return null;
  const problem = hl7CodeProblem(raw);
  if (problem) throw new UsageError(problem);
  return raw;
}

async function checkHl7CodeFree(db: Knex, code: string): Promise<void> {
  const holder = (await db('facilities').where({ hl7_code: code }).first('id')) as { id: string } | undefined;
  if (holder) throw new UsageError(`HL7 code ${code} already names facility ${holder.id}; codes are unique`);
}

async function withHl7Code(db: Knex, facilityId: string, code: string | null): Promise<Hl7Facility> {
  try {
    const facility = await setFacilityHl7Code(db, facilityId, code);
    if (!facility) throw new UsageError(`no facility ${facilityId}`);
    return facility;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

export const facilityUpdate: Command = {
  name: 'facility update',
  summary: 'Set the HL7 code an ADT feed names the facility by (PV1-3.4 or MSH-4), and the NPI it asks payers about eligibility as (X12 270); "" clears either.',
  usage: 'facility update FAC [--hl7-code CODE] [--npi NPI] [--json]',
  options: { 'hl7-code': { type: 'string' }, npi: { type: 'string' } },
  positionals: 1,
  async run(args, cli) {
    const facilityId = args.positionals[0]!.trim().toLowerCase();
    if (!isUuid(facilityId)) throw new UsageError(`FAC must be a facility id (a UUID), got "${args.positionals[0]}"`);
    const rawCode = args.values['hl7-code'];
    const rawNpi = args.values.npi;
    if (rawCode === undefined && rawNpi === undefined) throw new UsageError('give --hl7-code, --npi or both');
    // Both checked before either is written: a refused value leaves the facility as it was.
    const code = rawCode === undefined ? undefined : hl7CodeOption(rawCode);
    const npi = rawNpi === undefined ? undefined : npiOption(rawNpi);
    const db = await cli.db();
    let facility: Partial<Hl7Facility> & { npi?: string | null } = {};
    if (code !== undefined) facility = await withHl7Code(db, facilityId, code);
    if (npi !== undefined) {
      const updated = await setFacilityNpi(db, facilityId, npi);
      if (!updated) throw new UsageError(`no facility ${facilityId}`);
      facility = { ...facility, ...updated };
    }
    if (facility.hl7_code === undefined) facility.hl7_code = ((await db('facilities').where({ id: facilityId }).first('hl7_code')) as { hl7_code: string | null }).hl7_code;
    if (facility.npi === undefined) facility.npi = ((await db('facilities').where({ id: facilityId }).first('npi')) as { npi: string | null }).npi;
    return facility;
  },
  format: (f: Hl7Facility & { npi: string | null }) => `facility ${f.id} (${f.name}) of organization ${f.org_id}: HL7 code ${f.hl7_code ?? '(none)'}, NPI ${f.npi ?? '(none: not checked for eligibility)'}`,
};

/** The NPI as typed; "" clears. */
function npiOption(raw: unknown): string | null {
  if (typeof raw !== 'string') throw new UsageError('--npi is required');
  if (raw === '') return null;
  const problem = npiProblem(raw);
  if (problem) throw new UsageError(`--npi ${JSON.stringify(raw)}: ${problem}`);
  return raw;
}
