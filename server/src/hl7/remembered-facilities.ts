// The facility each HL7 code names, remembered by the process on PostgreSQL.
//
// WHY: a sender that waits for each ACK pays every round trip of its message in turn, and
// reading the facility before the message's transaction was one of seven. Remembered, the
// code's facility is instead checked inside the message's first statement (the clock tick's,
// ingest/ingest-clock.ts: `stillNamedBy`); when an operator has moved the code meanwhile, the
// message is rolled back and applied again with the facility read afresh. So a remembered
// facility is never trusted, only spared a round trip. On SQLite a read costs no round trip:
// it is read every time.
import type { Knex } from 'knex';
import { isPostgres } from '../db/database.js';
import { findFacilityByHl7Code, type Hl7Facility } from '../organizations/organizations.js';
import { recentlyUsed } from '../db/recently-used.js';
import { statementTemplate } from '../db/statement-template.js';

/** Codes remembered per database (a process normally has one); the least recently used go first. */
const KEPT_CODES = 1024;
const remembered = new WeakMap<Knex, Map<string, Hl7Facility>>();

export interface NamedFacility {
  facility: Hl7Facility;
  /** Read from memory: the message's transaction must check that the code still names it. */
  remembered: boolean;
}

/** The facility `code` names, or undefined when none does (an unknown code is never remembered). */
export async function facilityNamedBy(db: Knex, code: string): Promise<NamedFacility | undefined> {
  if (!isPostgres(db)) {
    const facility = await findFacilityByHl7Code(db, code);
    return facility && { facility, remembered: false };
  }
  let codes = remembered.get(db);
  if (!codes) remembered.set(db, (codes = new Map()));
  const known = codes.get(code);
  if (known) return { facility: recentlyUsed(codes, code, KEPT_CODES, () => known), remembered: true };
  const facility = await findFacilityByHl7Code(db, code);
  if (!facility) return undefined;
  recentlyUsed(codes, code, KEPT_CODES, () => facility);
  return { facility, remembered: false };
}

/** Forgets what `code` named: the next message reads it afresh. */
export function forgetFacilityCode(db: Knex, code: string): void {
  remembered.get(db)?.delete(code);
}

/** The read that checks, inside the message's transaction, that `code` still names the remembered facility (a row when it does). */
export function stillNamedBy(db: Knex, facilityId: string, code: string): Knex.QueryBuilder {
  return db('facilities').where({ id: facilityId, hl7_code: code }).select('id');
}

/** stillNamedBy's text compiled once (db/statement-template.ts), for the PostgreSQL tick's reads. */
export const stillNamedStatement = statementTemplate(stillNamedBy);
