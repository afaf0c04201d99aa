// One ADT message, start to finish: read it (@medplum/core Hl7Message), translate it
// (adt-translator.ts), find its facility by HL7 code, and apply its Patient through
// applyChangeSet, with its control id recorded in the same transaction, so a re-sent message is
// acknowledged AA and applied no second time. Whatever happens, the answer is an ACK.
import { Hl7Message } from '@medplum/core';
import type { Knex } from 'knex';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { ChangeIssue } from '../ingest/change-set.js';
import { findFacilityByHl7Code } from '../organizations/organizations.js';
import { nowIso } from '../db/clock.js';
import { translateAdt, type AdtTranslation } from './adt-translator.js';
import { ackOf, nakWithoutMessage } from './hl7-ack.js';
import { Hl7Failure } from './hl7-failure.js';
import { checkEncodingCharacters } from './hl7-text.js';

export const HL7_ACTOR = 'hl7v2';

export interface AdtOutcome {
  ack: Hl7Message;
  /** applied: written now; duplicate: applied before (same MSH-3 and MSH-10); else refused. */
  result: 'applied' | 'duplicate' | 'refused' | 'failed';
  events: string[];
}

/** Where in the message a Patient element came from, for the ERR segment. */
const ELEMENT_FIELDS: Array<[RegExp, string, number]> = [
  [/^Patient\.identifier/, 'PID', 3],
  [/^Patient\.name/, 'PID', 5],
  [/^Patient\.birthDate/, 'PID', 7],
  [/^Patient\.gender/, 'PID', 8],
];

function failureOf(issue: ChangeIssue): Hl7Failure {
  const expression = issue.expression?.[0] ?? '';
  const hit = ELEMENT_FIELDS.find(([pattern]) => pattern.test(expression));
  const code = issue.code === 'conflict' ? 'unknown_key_identifier' : issue.code === 'required' ? 'required_field_missing' : 'data_type_error';
  return new Hl7Failure('AE', code, hit ? { segment: hit[1], sequence: 1, field: hit[2] } : { segment: 'PID', sequence: 1 }, issue.diagnostics);
}

/** The control id of something that looks like an MSH, for NAKs of messages we cannot read. */
function controlIdGuess(text: string): string {
  const separator = text[3];
  if (!text.startsWith('MSH') || !separator) return '';
  return (text.split(/[\r\n]/, 1)[0]!.split(separator)[9] ?? '').slice(0, 199);
}

export function readMessage(text: string): Hl7Message {
  if (!text.startsWith('MSH')) throw new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'the message must start with an MSH segment');
  const bad = checkEncodingCharacters(text);
  if (bad) throw new Hl7Failure('AR', 'data_type_error', { segment: 'MSH', sequence: 1, field: 2 }, bad);
  return Hl7Message.parse(text.replace(/[\r\n]+$/, ''));
}

async function alreadyApplied(db: Knex, orgId: string, t: AdtTranslation): Promise<boolean> {
  return (await db('hl7_applied_messages').where({ org_id: orgId, sending_application: t.sendingApplication.slice(0, 227), control_id: t.controlId.slice(0, 199) }).first('control_id')) !== undefined;
}

/** A08 keeps the resident where and as it is: its facility and active flag, when it exists. */
async function currentResident(trx: Knex.Transaction, orgId: string, t: AdtTranslation): Promise<{ facility_id: string; active: boolean } | undefined> {
  const ids = (await trx('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: t.match.system, value: t.match.value }).pluck('resource_id')) as string[];
  if (ids.length !== 1) return undefined;
  const row = await trx('residents').where({ id: ids[0] }).first('facility_id', 'active');
  return row ? { facility_id: row.facility_id as string, active: Boolean(row.active) } : undefined;
}

export async function applyAdtText(db: Knex, text: string, onError?: (error: Error) => void): Promise<AdtOutcome> {
  let message: Hl7Message;
  try {
    message = readMessage(text);
  } catch (error) {
    const failure = error instanceof Hl7Failure ? error : new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'the message could not be read as HL7 v2');
    return { ack: nakWithoutMessage(failure, controlIdGuess(text)), result: 'refused', events: [] };
  }
  let translation: AdtTranslation;
  try {
    translation = translateAdt(message);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { ack: ackOf(message, error), result: 'refused', events: [] };
  }
  try {
    const facility = await findFacilityByHl7Code(db, translation.facilityCode);
    if (!facility) {
      const [segment, field, comp] = translation.facilityCodeAt === 'PV1-3.4' ? ['PV1', 3, 4] : ['MSH', 4, 1];
      throw new Hl7Failure('AE', 'unknown_key_identifier', { segment: segment as string, sequence: 1, field: field as number, component: comp as number }, `no facility has HL7 code ${JSON.stringify(translation.facilityCode)} (${translation.facilityCodeAt}); the operator sets it with ops facility update FAC --hl7-code CODE`);
    }
    const orgId = facility.org_id;
    if (await alreadyApplied(db, orgId, translation)) return { ack: ackOf(message), result: 'duplicate', events: [] };
    const events = await db.transaction(async (trx) => {
      let facilityId = facility.id;
      const patient = { ...translation.patient };
      if (translation.active === 'keep') {
        const current = await currentResident(trx, orgId, translation);
        // An A08 for a resident not known yet records the demographics, inactive: no event.
        patient.active = current ? current.active : false;
        if (current) facilityId = current.facility_id;
      }
      const result = await applyChangeSet(trx, { orgId, facilityId, mode: 'transaction', actor: HL7_ACTOR, emitEvents: true, changes: [{ resource: patient, match: { identifier: translation.match }, at: 'PID' }] }, { requestId: `hl7:${translation.controlId}`.slice(0, 64) });
      const outcome = result.outcomes[0]!;
      if (outcome.outcome === 'rejected') throw failureOf(outcome.issue);
      await trx('hl7_applied_messages').insert({ org_id: orgId, sending_application: translation.sendingApplication.slice(0, 227), control_id: translation.controlId.slice(0, 199), applied_at: nowIso() });
      return outcome.events;
    });
    return { ack: ackOf(message), result: 'applied', events };
  } catch (error) {
    if (error instanceof Hl7Failure) return { ack: ackOf(message, error), result: 'refused', events: [] };
    // Another connection applied the same control id first: it is applied, once.
    const facility = await findFacilityByHl7Code(db, translation.facilityCode).catch(() => undefined);
    if (facility && (await alreadyApplied(db, facility.org_id, translation).catch(() => false))) return { ack: ackOf(message), result: 'duplicate', events: [] };
    onError?.(error as Error);
    const failure = new Hl7Failure('AE', 'internal_error', undefined, 'the message could not be applied now (nothing was written); send it again');
    return { ack: ackOf(message, failure), result: 'failed', events: [] };
  }
}
