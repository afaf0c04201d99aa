// One ADT message, start to finish: read it (@medplum/core Hl7Message), translate it
// (adt-translator.ts), find its facility by HL7 code, and apply its Patient through
// applyChangeSet, with its control id recorded in the same transaction, so a re-sent message is
// acknowledged AA and applied no second time. Whatever happens, the answer is an ACK.
import { Hl7Message } from '@medplum/core';
import type { Knex } from 'knex';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { ChangeIssue } from '../ingest/change-set.js';
import { findFacilityByHl7Code, type Hl7Facility } from '../organizations/organizations.js';
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

type Prepared =
  | { done: AdtOutcome }
  | { done?: undefined; message: Hl7Message; translation: AdtTranslation; facility: Hl7Facility };

const refused = (ack: Hl7Message): AdtOutcome => ({ ack, result: 'refused', events: [] });
const controlKey = (orgId: string, t: AdtTranslation) => `${orgId}|${t.sendingApplication.slice(0, 227)}|${t.controlId.slice(0, 199)}`;
const appliedRow = (orgId: string, t: AdtTranslation) => ({ org_id: orgId, sending_application: t.sendingApplication.slice(0, 227), control_id: t.controlId.slice(0, 199), applied_at: nowIso() });

/** Reads, translates and finds the facility of one message; a refusal is answered here. */
async function prepare(db: Knex, text: string, facilities: Map<string, Promise<Hl7Facility | undefined>>): Promise<Prepared> {
  let message: Hl7Message;
  try {
    message = readMessage(text);
  } catch (error) {
    const failure = error instanceof Hl7Failure ? error : new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'the message could not be read as HL7 v2');
    return { done: refused(nakWithoutMessage(failure, controlIdGuess(text))) };
  }
  let translation: AdtTranslation;
  try {
    translation = translateAdt(message);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { done: refused(ackOf(message, error)) };
  }
  if (!facilities.has(translation.facilityCode)) facilities.set(translation.facilityCode, findFacilityByHl7Code(db, translation.facilityCode));
  const facility = await facilities.get(translation.facilityCode)!;
  if (!facility) {
    const [segment, field, comp] = translation.facilityCodeAt === 'PV1-3.4' ? ['PV1', 3, 4] : ['MSH', 4, 1];
    const failure = new Hl7Failure('AE', 'unknown_key_identifier', { segment: segment as string, sequence: 1, field: field as number, component: comp as number }, `no facility has HL7 code ${JSON.stringify(translation.facilityCode)} (${translation.facilityCodeAt}); the operator sets it with ops facility update FAC --hl7-code CODE`);
    return { done: refused(ackOf(message, failure)) };
  }
  return { message, translation, facility };
}

const internalFailure = () => new Hl7Failure('AE', 'internal_error', undefined, 'the message could not be applied now (nothing was written); send it again');

/** One message in its own transaction: the Patient and its control id together. */
async function applyOne(db: Knex, p: Exclude<Prepared, { done: AdtOutcome }>, onError?: (error: Error) => void): Promise<AdtOutcome> {
  const { message, translation, facility } = p;
  const orgId = facility.org_id;
  try {
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
      await trx('hl7_applied_messages').insert(appliedRow(orgId, translation));
      return outcome.events;
    });
    return { ack: ackOf(message), result: 'applied', events };
  } catch (error) {
    if (error instanceof Hl7Failure) return refused(ackOf(message, error));
    // Another connection applied the same control id first: it is applied, once.
    if (await alreadyApplied(db, orgId, translation).catch(() => false)) return { ack: ackOf(message), result: 'duplicate', events: [] };
    onError?.(error as Error);
    return { ack: ackOf(message, internalFailure()), result: 'failed', events: [] };
  }
}

/**
 * Consecutive messages for one facility, queued on a connection (a sender that does not wait
 * for each ACK): applied in one transaction as a batch ChangeSet, so each message still
 * succeeds or fails on its own, in order, with its control id recorded beside it.
 */
async function applyRun(db: Knex, run: Array<Exclude<Prepared, { done: AdtOutcome }>>, onError?: (error: Error) => void): Promise<AdtOutcome[]> {
  const { org_id: orgId, id: facilityId } = run[0]!.facility;
  try {
    return await db.transaction(async (trx) => {
      const stored = (await trx('hl7_applied_messages').where({ org_id: orgId }).whereIn('control_id', run.map((p) => p.translation.controlId.slice(0, 199))).select('sending_application', 'control_id')) as Array<{ sending_application: string; control_id: string }>;
      const seen = new Set(stored.map((r) => `${orgId}|${r.sending_application}|${r.control_id}`));
      const todo = run.filter((p) => !seen.has(controlKey(orgId, p.translation)));
      const result = todo.length
        ? await applyChangeSet(trx, { orgId, facilityId, mode: 'batch', actor: HL7_ACTOR, emitEvents: true, changes: todo.map((p) => ({ resource: p.translation.patient, match: { identifier: p.translation.match }, at: 'PID' })) }, { requestId: `hl7:${todo[0]!.translation.controlId}`.slice(0, 64) })
        : { outcomes: [] };
      const byKey = new Map(todo.map((p, i) => [controlKey(orgId, p.translation), result.outcomes[i]!]));
      const applied = todo.filter((p) => byKey.get(controlKey(orgId, p.translation))!.outcome !== 'rejected');
      for (let i = 0; i < applied.length; i += 200) await trx('hl7_applied_messages').insert(applied.slice(i, i + 200).map((p) => appliedRow(orgId, p.translation)));
      return run.map((p): AdtOutcome => {
        const outcome = byKey.get(controlKey(orgId, p.translation));
        if (!outcome) return { ack: ackOf(p.message), result: 'duplicate', events: [] };
        if (outcome.outcome === 'rejected') return refused(ackOf(p.message, failureOf(outcome.issue)));
        return { ack: ackOf(p.message), result: 'applied', events: outcome.events };
      });
    });
  } catch {
    // Whatever failed the run, each message gets its own chance (and its own answer).
    const outcomes: AdtOutcome[] = [];
    for (const p of run) outcomes.push(await applyOne(db, p, onError));
    return outcomes;
  }
}

/** Messages of one connection, in the order received: each answered, in that order. */
export async function applyAdtTexts(db: Knex, texts: string[], onError?: (error: Error) => void): Promise<AdtOutcome[]> {
  const facilities = new Map<string, Promise<Hl7Facility | undefined>>();
  const prepared: Prepared[] = [];
  for (const text of texts) prepared.push(await prepare(db, text, facilities));
  const outcomes: AdtOutcome[] = [];
  let i = 0;
  while (i < prepared.length) {
    const p = prepared[i]!;
    if (p.done) {
      outcomes.push(p.done);
      i++;
      continue;
    }
    // A run: same facility, no A08 (it reads the resident first), no control id twice.
    const keys = new Set<string>();
    let j = i;
    while (j < prepared.length) {
      const q = prepared[j]!;
      if (q.done || q.translation.active === 'keep' || q.facility.id !== p.facility.id || keys.has(controlKey(q.facility.org_id, q.translation))) break;
      keys.add(controlKey(q.facility.org_id, q.translation));
      j++;
    }
    if (j - i <= 1) {
      outcomes.push(await applyOne(db, p, onError));
      i++;
    } else {
      outcomes.push(...(await applyRun(db, prepared.slice(i, j) as Array<Exclude<Prepared, { done: AdtOutcome }>>, onError)));
      i = j;
    }
  }
  return outcomes;
}

export async function applyAdtText(db: Knex, text: string, onError?: (error: Error) => void): Promise<AdtOutcome> {
  return (await applyAdtTexts(db, [text], onError))[0]!;
}
