// Which organization a message is for, when the message itself does not tell: an HL7 v2
// message whose facility code names no facility (or that cannot be read at all). HL7 codes are
// unique across the service, so MLLP is the service's, not an organization's. In order: the
// facility the sending source is bound to (MLLP_SOURCE_FACILITIES); the one organization, when
// the service holds one; else none (org_id null: `ops messages list --unattributed`, never an
// organization's console, since it may be another organization's patient).
import type { Knex } from 'knex';
import { findFacilityByHl7Code } from '../organizations/organizations.js';

export async function attributedOrganization(db: Knex, boundFacilityCode?: string): Promise<string | null> {
  if (boundFacilityCode) {
    const facility = await findFacilityByHl7Code(db, boundFacilityCode);
    if (facility) return facility.org_id;
  }
  const organizations = (await db('organizations').limit(2).pluck('id')) as string[];
  return organizations.length === 1 ? organizations[0]! : null;
}
