// Organizations and their facilities: the tenancy every credential and resource belongs to.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { preparedStatements } from '../db/prepared-statements.js';
import { nowIso } from '../db/clock.js';

export interface Organization {
  id: string;
  name: string;
}

export interface Facility {
  id: string;
  org_id: string;
  name: string;
}

export async function createOrganization(db: Knex, name: string): Promise<Organization> {
  const org = { id: randomUUID(), name };
  await db('organizations').insert({ ...org, created_at: nowIso() });
  return org;
}

export async function findOrganization(db: Knex, id: string): Promise<Organization | undefined> {
  return db('organizations').select('id', 'name').where({ id }).first();
}

export async function createFacility(db: Knex, orgId: string, name: string): Promise<Facility> {
  if (!(await findOrganization(db, orgId))) throw new Error(`no organization ${orgId}`);
  const facility = { id: randomUUID(), org_id: orgId, name };
  await db('facilities').insert({ ...facility, created_at: nowIso() });
  return facility;
}

/** A facility with the HL7 code its ADT feed names it by (HL7 v2 PV1-3.4 or MSH-4). */
export interface Hl7Facility extends Facility {
  hl7_code: string | null;
  /** Its organization holds HL7 results stored with the match keys of earlier releases (migration 048): the applier looks those up too. */
  former_result_keys?: boolean;
}

/**
 * The longest HL7 code: 227 characters, the length of the whole HD data type (HD.1 IS 20 +
 * HD.2 ST 199 + HD.3 ID 6 + two separators, v2.5). HD.1 alone is 20 in v2.5, but senders
 * write longer names there (`MN Public Health Lab`); 227 is what any HD can hold, and the
 * width of hl7_applied_messages.sending_application, which is an HD as well.
 */
export const HL7_CODE_MAX_LENGTH = 227;

/**
 * Why a facility's HL7 code cannot be stored, or undefined when it can. A code is written the
 * way the sender writes MSH-4 / PV1-3.4 (after escape sequences are decoded) and matched
 * exactly, so spaces and punctuation are kept (`GOOD HEALTH HOSPITAL`, `St. Mary's`); what
 * is refused can never arrive in one component of a message: the HL7 delimiters | ^ ~ \ &,
 * line breaks and other control characters, and whitespace at either end (the listener trims
 * what it reads).
 */
export function hl7CodeProblem(code: string): string | undefined {
  const shown = JSON.stringify(code);
  const length = [...code].length;
  if (length === 0) return 'an HL7 code may not be empty';
  if (length > HL7_CODE_MAX_LENGTH) return `an HL7 code is at most ${HL7_CODE_MAX_LENGTH} characters (the HL7 HD type's length); got ${length}`;
  if (/[|^~\\&]/.test(code)) return `an HL7 code may not contain the HL7 delimiters | ^ ~ \\ &; got ${shown}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(code)) return `an HL7 code may not contain line breaks or other control characters; got ${shown}`;
  if (code.trim() !== code) return `an HL7 code may not begin or end with whitespace; got ${shown}`;
  return undefined;
}

export class Hl7CodeTaken extends Error {}

/** Sets (or clears, with null) a facility's HL7 code; codes are unique across the service. */
export async function setFacilityHl7Code(db: Knex, facilityId: string, code: string | null): Promise<Hl7Facility | undefined> {
  const problem = code === null ? undefined : hl7CodeProblem(code);
  if (problem) throw new Error(problem);
  return db.transaction(async (trx) => {
    const facility = (await trx('facilities').where({ id: facilityId }).first('id', 'org_id', 'name', 'hl7_code')) as Hl7Facility | undefined;
    if (!facility) return undefined;
    if (code !== null) {
      const holder = (await trx('facilities').where({ hl7_code: code }).whereNot({ id: facilityId }).first('id')) as { id: string } | undefined;
      if (holder) throw new Hl7CodeTaken(`HL7 code ${code} already names facility ${holder.id}; codes are unique`);
    }
    try {
      await trx('facilities').where({ id: facilityId }).update({ hl7_code: code });
    } catch (error) {
      // Two operators at once: the unique index decides.
      throw new Hl7CodeTaken(`HL7 code ${code} is already taken (${(error as Error).message.split('\n')[0]})`);
    }
    return { ...facility, hl7_code: code };
  });
}

const FACILITY_BY_HL7_CODE = 'select f.id, f.org_id, f.name, f.hl7_code, o.hl7_former_result_keys from facilities f join organizations o on o.id = f.org_id where f.hl7_code = ? limit 1';

/**
 * The facility an HL7 code names, with its organization. Read for every HL7 message, outside
 * its transaction: a prepared statement, not knex's build and prepare each time.
 */
export async function findFacilityByHl7Code(db: Knex, code: string): Promise<Hl7Facility | undefined> {
  const row = (
    db.isTransaction
      ? await db('facilities as f').join('organizations as o', 'o.id', 'f.org_id').where({ 'f.hl7_code': code }).first('f.id', 'f.org_id', 'f.name', 'f.hl7_code', 'o.hl7_former_result_keys')
      : (await preparedStatements(db).all(FACILITY_BY_HL7_CODE, [code]))[0]
  ) as (Facility & { hl7_code: string | null; hl7_former_result_keys: unknown }) | undefined;
  if (!row) return undefined;
  const { hl7_former_result_keys: former, ...facility } = row;
  return { ...facility, former_result_keys: Boolean(Number(former)) };
}

export async function listFacilities(db: Knex, orgId: string): Promise<Facility[]> {
  return db('facilities').select('id', 'org_id', 'name').where({ org_id: orgId }).orderBy('created_at').orderBy('id');
}

/** A facility with the NPI it asks payers as (X12 270 NM1*1P, qualifier XX); null: not checked. */
export interface NpiFacility extends Facility {
  npi: string | null;
}

/** Sets (or clears, with null) the facility's NPI, checked by the caller (eligibility/npi.ts). */
export async function setFacilityNpi(db: Knex, facilityId: string, npi: string | null): Promise<NpiFacility | undefined> {
  const updated = await db('facilities').where({ id: facilityId }).update({ npi });
  if (updated !== 1) return undefined;
  return (await db('facilities').where({ id: facilityId }).first('id', 'org_id', 'name', 'npi')) as NpiFacility;
}
