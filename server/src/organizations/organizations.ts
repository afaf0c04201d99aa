// Organizations and their facilities: the tenancy every credential and resource belongs to.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
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
}

/** HL7 v2 IS/HD values: printable, no encoding characters, at most 64 characters. */
export const HL7_CODE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export class Hl7CodeTaken extends Error {}

/** Sets (or clears, with null) a facility's HL7 code; codes are unique across the service. */
export async function setFacilityHl7Code(db: Knex, facilityId: string, code: string | null): Promise<Hl7Facility | undefined> {
  if (code !== null && !HL7_CODE_PATTERN.test(code)) throw new Error(`an HL7 code is 1 to 64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(code)}`);
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

/** The facility an HL7 code names, with its organization. */
export async function findFacilityByHl7Code(db: Knex, code: string): Promise<Hl7Facility | undefined> {
  return db('facilities').where({ hl7_code: code }).first('id', 'org_id', 'name', 'hl7_code');
}

export async function listFacilities(db: Knex, orgId: string): Promise<Facility[]> {
  return db('facilities').select('id', 'org_id', 'name').where({ org_id: orgId }).orderBy('created_at').orderBy('id');
}
