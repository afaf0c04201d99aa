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

export async function listFacilities(db: Knex, orgId: string): Promise<Facility[]> {
  return db('facilities').select('id', 'org_id', 'name').where({ org_id: orgId }).orderBy('created_at').orderBy('id');
}
