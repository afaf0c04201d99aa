// One HL7 v2 message, start to finish: read it (@medplum/core Hl7Message), translate it
// (message-translator.ts), validate what it maps to as FHIR R4 (as an import is), find its
// facility by HL7 code, and apply the resident and its records through applyChangeSet, with
// the control id recorded in the same transaction, so a re-sent message is acknowledged AA and
// applied no second time. Whatever happens, the answer is an ACK: AA (with an ERR of severity
// W for each record that could not be kept), or AE/AR naming why nothing was applied.
import { Hl7Message } from '@medplum/core';
import type { Knex } from 'knex';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { RecordRow } from '../ingest/record-row.js';
import type { ReadIdentifiers } from '../ingest/chunk-records.js';
import { identifierRowsStatement, type IdentifierRow } from '../db/identifier-rows.js';
import type { BusinessIdentifier, ChangeIssue, ChangeOutcome, ResourceChange } from '../ingest/change-set.js';
import { r4SchemaIssues, type SchemaCheckedType } from '../ingest/r4-json-schema.js';
import { findFacilityByHl7Code, type Hl7Facility } from '../organizations/organizations.js';
import { facilityNamedBy, forgetFacilityCode, stillNamedBy, stillNamedStatement, type NamedFacility } from './remembered-facilities.js';
import { statementTemplate, type CompiledStatement } from '../db/statement-template.js';
import { subscriptionsStatement, type MatchedSubscription } from '../webhooks/event-outbox.js';
import { nowIso } from '../db/clock.js';
import { isPostgres } from '../db/database.js';
import { transactionRowsOf } from '../db/transaction-statements.js';
import { tickIngestClockWith } from '../ingest/ingest-clock.js';
import { translateMessage, type Hl7Translation } from './message-translator.js';
import { ackOf, nakWithoutMessage } from './hl7-ack.js';
import { Hl7Failure } from './hl7-failure.js';
import { checkEncodingCharacters } from './hl7-text.js';
import { listItemsNoLongerListed } from './list-snapshot.js';
import { answerOfAck, receivedHl7 } from './hl7-received.js';
import type { InboundMessageRow, MessageStore, ReprocessedOriginal } from '../messages/message-store.js';
import type { ChangedRecord, MessageOutcome } from '../messages/message-types.js';
import { attributedOrganization } from '../messages/message-attribution.js';

export const HL7_ACTOR = 'hl7v2';

export interface Hl7Outcome {
  ack: Hl7Message;
  /** applied: written now; duplicate: applied before (same MSH-3 and MSH-10); else refused. */
  result: 'applied' | 'duplicate' | 'refused' | 'failed';
  events: string[];
  /** The message store's row (message or reprocess outcome), once committed; absent without a store. */
  stored?: InboundMessageRow;
}

/** What a message wrote, for the message store: its records and its resident. */
interface Written {
  records: ChangedRecord[];
  residentId: string | null;
  orgId: string;
  facilityId: string;
}

const recordsOf = (outcomes: ChangeOutcome[]): ChangedRecord[] =>
  outcomes.flatMap((o) => (o.outcome === 'created' || o.outcome === 'updated' ? [{ type: o.resourceType, id: o.id, version: o.versionId, outcome: o.outcome }] : []));

/** The store's view of an outcome: applied with warnings when the ACK carries ERR of severity W; failed is refused (nothing written, the sender is told to send again). */
function messageOutcomeOf(outcome: Hl7Outcome, written?: Partial<Written>): MessageOutcome {
  const answer = answerOfAck(outcome.ack);
  const status = outcome.result === 'applied' ? (answer.errors.length > 0 ? 'applied_with_warnings' : 'applied') : outcome.result === 'duplicate' ? 'duplicate' : 'refused';
  return { status, answer, records: written?.records ?? [], residentId: written?.residentId ?? null, orgId: written?.orgId ?? null, facilityId: written?.facilityId ?? null };
}

/** Where in the message a Patient element came from, for the ERR segment. */
const ELEMENT_FIELDS: Array<[RegExp, string, number]> = [
  [/^Patient\.identifier/, 'PID', 3],
  [/^Patient\.name/, 'PID', 5],
  [/^Patient\.birthDate/, 'PID', 7],
  [/^Patient\.gender/, 'PID', 8],
  [/^Patient\.link/, 'MRG', 1],
];

function failureOf(issue: ChangeIssue): Hl7Failure {
  const expression = issue.expression?.[0] ?? '';
  const hit = ELEMENT_FIELDS.find(([pattern]) => pattern.test(expression));
  const code = issue.code === 'conflict' || issue.code === 'not-found' ? 'unknown_key_identifier' : issue.code === 'required' ? 'required_field_missing' : 'data_type_error';
  return new Hl7Failure('AE', code, hit ? { segment: hit[1], sequence: 1, field: hit[2] } : { segment: 'PID', sequence: 1 }, issue.diagnostics);
}

/** A record the store refused: dropped, named in a warning. `at` is "AL1 #2". */
function recordWarning(at: string, issue: ChangeIssue): Hl7Failure {
  const [segment, sequence] = at.split(' #');
  return new Hl7Failure('AE', issue.code === 'required' ? 'required_field_missing' : 'data_type_error', { segment: segment!, sequence: Number(sequence) || 1 }, `${at} not kept: ${issue.diagnostics}`);
}

/** The control id of something that looks like an MSH, for NAKs of messages we cannot read. */
function controlIdGuess(text: string): string {
  const separator = text[3];
  if (!text.startsWith('MSH') || !separator) return '';
  return (text.split(/[\r\n]/, 1)[0]!.split(separator)[9] ?? '').slice(0, 199);
}

/**
 * The text as real senders write it: a UTF-8 byte-order mark, or blank lines, before MSH;
 * MSH-2 written `^~\\&` by engines that escape the backslash once too often.
 */
function normalized(text: string): string {
  let t = text.replace(/^[\uFEFF\s]+/, '');
  if (t.startsWith('MSH') && t.slice(4, 10) === '^~\\\\&' + t[3]) t = `${t.slice(0, 4)}^~\\&${t.slice(9)}`;
  return t;
}

export function readMessage(raw: string): Hl7Message {
  const text = normalized(raw);
  if (!text.startsWith('MSH')) throw new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'the message must start with an MSH segment');
  const bad = checkEncodingCharacters(text);
  if (bad) throw new Hl7Failure('AR', 'data_type_error', { segment: 'MSH', sequence: 1, field: 2 }, bad);
  return Hl7Message.parse(text.replace(/[\r\n]+$/, ''));
}

const controlKeyOf = (t: Hl7Translation) => ({ sending_application: t.sendingApplication.slice(0, 227), control_id: t.controlId.slice(0, 199) });

async function alreadyApplied(db: Knex, orgId: string, t: Hl7Translation): Promise<boolean> {
  return (await db('hl7_applied_messages').where({ org_id: orgId, ...controlKeyOf(t) }).first('control_id')) !== undefined;
}

/**
 * The resident the message names, when it exists (organization-wide, by the matched identifier):
 * one statement, the identifier rows joined to their resident (two at most: a match that is
 * not unique names nobody). On PostgreSQL each statement is a round trip an MLLP sender waits for.
 */
const residentByIdentifierStatement = statementTemplate((db: Knex, orgId: string, system: string, value: string) =>
  db('resource_identifiers as i')
    .leftJoin('residents as r', 'r.id', 'i.resource_id')
    .where({ 'i.org_id': orgId, 'i.resource_type': 'Patient', 'i.system': system, 'i.value': value })
    .limit(2)
    .select({ matched_id: 'i.resource_id' }, 'r.*'),
);

async function currentResident(trx: Knex.Transaction, orgId: string, match: BusinessIdentifier): Promise<CurrentResident | undefined> {
  const rows = await transactionRowsOf<RecordRow & { matched_id: string }>(trx, residentByIdentifierStatement(trx, orgId, match.system, match.value));
  if (rows.length !== 1 || !rows[0]!.id) return undefined;
  // The whole row, as the change set reads it: handed to it, it is not read again.
  const { matched_id: _matched, ...row } = rows[0]!;
  return residentOfRow(row as RecordRow);
}

const residentOfRow = (row: RecordRow): CurrentResident => ({ id: row.id, facility_id: row.facility_id, active: Boolean(row.active), birth_date: (row.birth_date as string | null) ?? null, gender: row.gender as string, row });

/**
 * PostgreSQL: the same read as one of the tick's riders (a round trip fewer, and no planning
 * at every message: a `*` would keep the tick unnamed). The row comes as JSON, which holds
 * every column of residents as the driver reads it (uuid and text as strings, integers,
 * booleans). Bindings: organization, system, value.
 */
const RESIDENT_BY_IDENTIFIER_PG = `select to_json(r) as row from resource_identifiers i left join residents r on r.id = i.resource_id
  where i.org_id = ? and i.resource_type = 'Patient' and i.system = ? and i.value = ? limit 2`;

/** The rows of that read: the resident when exactly one row matched and it exists. */
function residentOfReadRows(rows: Array<{ row: RecordRow | null }>): CurrentResident | undefined {
  return rows.length === 1 && rows[0]!.row ? residentOfRow(rows[0]!.row) : undefined;
}

interface CurrentResident {
  id: string;
  facility_id: string;
  active: boolean;
  birth_date: string | null;
  gender: string;
  /** The residents row (select *). */
  row: RecordRow;
}

/** PID-7 or PID-8 was left out (malformed): the resident's own values are kept. */
const leftOut = (t: Hl7Translation) => t.patient !== undefined && (t.patient.birthDate === undefined || t.patient.gender === undefined);

type Prepared =
  | { done: Hl7Outcome; text: string; facility?: Hl7Facility }
  | { done?: undefined; text: string; message: Hl7Message; translation: Hl7Translation; facility: Hl7Facility; warnings: Hl7Failure[]; remembered: boolean };
type Ready = Extract<Prepared, { done?: undefined }>;

const refused = (ack: Hl7Message): Hl7Outcome => ({ ack, result: 'refused', events: [] });
const controlKey = (orgId: string, t: Hl7Translation) => `${orgId}|${t.sendingApplication.slice(0, 227)}|${t.controlId.slice(0, 199)}`;
const appliedRow = (orgId: string, t: Hl7Translation) => ({ org_id: orgId, ...controlKeyOf(t), applied_at: nowIso() });

/** Records a message's control id; returns nothing when it is recorded already. */
const recordApplied = (db: Knex, row: ReturnType<typeof appliedRow>) => db('hl7_applied_messages').insert(row).onConflict(['org_id', 'sending_application', 'control_id']).ignore().returning('control_id');
/** The same, its text compiled once (db/statement-template.ts): on PostgreSQL it rides with the tick at every message. */
const recordingStatement = statementTemplate((db: Knex, orgId: string, sendingApplication: string, controlId: string, appliedAt: string) =>
  recordApplied(db, { org_id: orgId, sending_application: sendingApplication, control_id: controlId, applied_at: appliedAt }),
);

/** Values of identifiers read with the tick at most (one statement's: db/identifier-rows.ts); a message naming more has its change set read them. */
const IDENTIFIERS_WITH_TICK = 1000;

/** The identifier values a message's change set matches on: the resident's (its records name it by it too), a merged one's, its records' (and, where `formerKeys`, what an earlier release derived for them). */
const identifierValuesOf = (t: Hl7Translation, formerKeys: boolean): string[] => [...new Set([t.match.value, ...(t.replaces ? [t.replaces.value] : []), ...t.records.flatMap((r) => (formerKeys && r.formerly ? [r.identifier.value, r.formerly.value] : [r.identifier.value]))])];

/** A message that changes nothing but its resident (ADT without records): it can share a transaction with its neighbours. */
const residentOnly = (p: Ready) => p.translation.messageType === 'ADT' && p.translation.active !== 'keep' && p.translation.records.length === 0 && p.translation.snapshots.length === 0 && !p.translation.replaces && !leftOut(p.translation);

/**
 * Validates the Patient and the records as FHIR R4, against the R4 JSON Schema (the mappers
 * build the shapes, the sender's values fill them: ingest/r4-json-schema.ts says why not
 * Medplum's walk here): a bad record is dropped with a warning, a bad Patient refuses the
 * message. In this thread: a message holds a few resources, and a hop to a worker per message
 * would cost a sender that waits for each ACK more than the validation itself.
 */
function validated(translation: Hl7Translation): { translation: Hl7Translation; warnings: Hl7Failure[] } | { refusal: Hl7Failure } {
  const resources = [...(translation.patient ? [translation.patient] : []), ...translation.records.map((r) => r.resource)];
  const issues: Array<ChangeIssue | null> = resources.map((resource) => r4SchemaIssues(resource as { resourceType: SchemaCheckedType })[0] ?? null);
  let offset = 0;
  let patientProblem = translation.patientProblem;
  if (translation.patient) {
    offset = 1;
    if (issues[0]) {
      if (translation.demographics === 'update') return { refusal: failureOf(issues[0]) };
      patientProblem = failureOf(issues[0]);
    }
  }
  const warnings = [...translation.warnings];
  const records = translation.records.filter((record, i) => {
    const issue = issues[offset + i];
    if (issue) warnings.push(recordWarning(record.at, issue));
    return !issue;
  });
  return { translation: { ...translation, records, ...(patientProblem ? { patientProblem, patient: undefined } : {}) }, warnings };
}

/** The refusal of a message whose facility code names no facility. */
function unknownFacility(message: Hl7Message, translation: Hl7Translation): Hl7Outcome {
  const [segment, field, comp] = translation.facilityCodeAt === 'PV1-3.4' ? ['PV1', 3, 4] : ['MSH', 4, 1];
  const named = translation.facilityCodeAt === 'source' ? 'MLLP_SOURCE_FACILITIES, for a message that names none' : translation.facilityCodeAt;
  const failure = new Hl7Failure('AE', 'unknown_key_identifier', { segment: segment as string, sequence: 1, field: field as number, component: comp as number }, `no facility has HL7 code ${JSON.stringify(translation.facilityCode)} (${named}); the operator sets it with ops facility update FAC --hl7-code CODE`);
  return refused(ackOf(message, failure));
}

/** Reads, translates, validates and finds the facility of one message; a refusal is answered here. */
async function prepare(db: Knex, text: string, facilities: Map<string, Promise<NamedFacility | undefined>>, source: Hl7Source): Promise<Prepared> {
  let message: Hl7Message;
  try {
    message = readMessage(text);
  } catch (error) {
    const failure = error instanceof Hl7Failure ? error : new Hl7Failure('AR', 'segment_sequence', { segment: 'MSH', sequence: 1 }, 'the message could not be read as HL7 v2');
    return { done: refused(nakWithoutMessage(failure, controlIdGuess(normalized(text)))), text };
  }
  let translation: Hl7Translation;
  try {
    translation = translateMessage(message, undefined, source.boundFacilityCode);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { done: refused(ackOf(message, error)), text };
  }
  if (!facilities.has(translation.facilityCode)) facilities.set(translation.facilityCode, facilityNamedBy(db, translation.facilityCode));
  const named = await facilities.get(translation.facilityCode)!;
  if (!named) return { done: unknownFacility(message, translation), text };
  const checked = validated(translation);
  if ('refusal' in checked) return { done: refused(ackOf(message, checked.refusal)), text, facility: named.facility };
  return { text, message, translation: checked.translation, facility: named.facility, remembered: named.remembered, warnings: checked.warnings };
}

/** The store's row for a message's outcome: the message as received, or a reprocess's outcome linked to it. */
function rowOf(source: Hl7Source, text: string, outcome: MessageOutcome): InboundMessageRow | undefined {
  if (!source.store) return undefined;
  if (source.reprocessOf) return source.store.outcomeRow(source.reprocessOf.original, outcome, source.reprocessOf.by);
  return source.store.row(receivedHl7(text, source), outcome);
}

/**
 * Stores a message whose outcome wrote nothing (a refusal, a duplicate, a failure): one insert,
 * its own transaction. The organization is the facility's when one was found, else told by
 * the source (message-attribution.ts).
 */
async function storedAlone(db: Knex, text: string, outcome: Hl7Outcome, source: Hl7Source, facility?: Hl7Facility, onError?: (error: Error) => void): Promise<Hl7Outcome> {
  if (!source.store) return outcome;
  try {
    const orgId = facility?.org_id ?? (source.reprocessOf ? source.reprocessOf.original.org_id : await attributedOrganization(db, source.boundFacilityCode));
    const row = rowOf(source, text, messageOutcomeOf(outcome, { orgId: orgId ?? undefined, facilityId: facility?.id }))!;
    if (row.org_id === null && orgId) row.org_id = orgId;
    await source.store.insert(db, [row]);
    return { ...outcome, stored: row };
  } catch (error) {
    onError?.(error as Error);
    return outcome;
  }
}

const internalFailure = () => new Hl7Failure('AE', 'internal_error', undefined, 'the message could not be applied now (nothing was written); send it again');

/** Thrown inside a message's transaction when its control id is recorded already: nothing of it is written. */
class AlreadyApplied extends Error {}

/** Thrown inside a message's transaction when its remembered facility no longer has its code: nothing of it is written. */
class FacilityCodeMoved extends Error {}

/** One message in its own transaction: the resident, its records and the control id together. */
async function applyOne(db: Knex, p: Ready, source: Hl7Source, onError?: (error: Error) => void): Promise<Hl7Outcome> {
  const { message, translation: t, facility } = p;
  const orgId = facility.org_id;
  // Results stored before 2026-11-29 are also looked up by their old keys, only where there are such results (migration 048).
  const formerKeys = facility.former_result_keys === true;
  try {
    return await db.transaction(async (trx) => {
      // The control id first: a re-sent message stops here, one statement instead of a read
      // before the transaction; and on SQLite a write first waits for the writer lock as it should.
      // On PostgreSQL it rides with the ingest clock's tick (one round trip for both).
      const applied = appliedRow(orgId, t);
      const recording = recordingStatement(trx, applied.org_id, applied.sending_application, applied.control_id, applied.applied_at);
      let tickedAt: string | undefined;
      let subscriptions: MatchedSubscription[] | undefined;
      let identifiers: ReadIdentifiers | undefined;
      // The resident as it is, when the message keeps what it does not say (read with the tick on PostgreSQL).
      const needsCurrent = t.active === 'keep' || t.demographics === 'if-new' || t.snapshots.length > 0 || leftOut(t);
      let read: { resident: CurrentResident | undefined } | undefined;
      if (isPostgres(db)) {
        // The facility's subscriptions ride along (used when the resident turns out to be in the
        // message's facility: results, orders and updates too, not only admissions); a
        // remembered facility is checked here (remembered-facilities.ts).
        const reads: Record<string, CompiledStatement> = { subscriptions: subscriptionsStatement(trx, orgId, facility.id) };
        if (p.remembered) reads.facility = stillNamedStatement(trx, facility.id, t.facilityCode);
        // The identifiers the change set will match on ride too, read only if they see every
        // ingest write committed before the lock (else the change set reads them itself).
        const values = identifierValuesOf(t, formerKeys);
        if (values.length <= IDENTIFIERS_WITH_TICK) reads.identifiers = identifierRowsStatement(orgId, values);
        // So does the resident, when the message needs it as it is.
        if (needsCurrent) reads.resident = { sql: RESIDENT_BY_IDENTIFIER_PG, bindings: [orgId, t.match.system, t.match.value] };
        const ticked = await tickIngestClockWith(trx, orgId, { first: recording, reads, readsMustBeCurrent: true });
        if (p.remembered && ticked.reads.facility!.length === 0) throw new FacilityCodeMoved();
        if (ticked.firstRows === 0) throw new AlreadyApplied();
        tickedAt = ticked.instant;
        subscriptions = ticked.reads.subscriptions as MatchedSubscription[] | undefined;
        if (reads.identifiers && ticked.readsCurrent) identifiers = { values, rows: ticked.reads.identifiers as IdentifierRow[] };
        if (reads.resident && ticked.readsCurrent) read = { resident: residentOfReadRows(ticked.reads.resident as Array<{ row: RecordRow | null }>) };
      } else if ((await transactionRowsOf(trx, recording)).length === 0) throw new AlreadyApplied();
      const current = needsCurrent ? (read ? read.resident : await currentResident(trx, orgId, t.match)) : undefined;
      // A message that does not admit, discharge or transfer keeps the resident where it is.
      const facilityId = t.active === 'keep' && current ? current.facility_id : facility.id;
      const changes: ResourceChange[] = [];
      if (t.demographics === 'update' || !current) {
        if (!t.patient) throw t.patientProblem ?? new Hl7Failure('AE', 'required_field_missing', { segment: 'PID', sequence: 1 }, 'PID cannot be read');
        // A resident not known yet, named by a message that does not admit it, is recorded inactive.
        const active = t.active === 'keep' ? (current ? current.active : false) : t.active;
        // A resident keeps the birth date and sex it has when PID-7 or PID-8 was left out; a new
        // one is recorded without a birth date (the warning names PID-7) rather than refused.
        const kept = current ? { ...(current.birth_date ? { birthDate: current.birth_date } : {}), gender: current.gender } : {};
        changes.push({ resource: { ...kept, ...t.patient, active }, match: { identifier: t.match }, at: 'PID', ...(t.replaces ? { replaces: t.replaces } : {}) });
      }
      for (const record of t.records) changes.push({ resource: record.resource, match: { identifier: record.identifier, ...(formerKeys && record.formerly ? { formerly: record.formerly } : {}) }, at: record.at });
      if (current) {
        const listed = new Set(t.records.map((r) => `${r.resource.resourceType}|${r.identifier.system}|${r.identifier.value}`));
        for (const snapshot of t.snapshots) {
          for (const resource of await listItemsNoLongerListed(trx, orgId, current.id, snapshot.type, snapshot.system, listed)) {
            changes.push({ resource: resource.resource, match: { id: resource.id }, at: `${snapshot.type} no longer listed` });
          }
        }
      }
      // The answer, from the changes' outcomes once each is decided: a refused Patient refuses
      // the message (thrown inside its transaction: nothing is written); and the message with
      // what it changed, stored if and only if applied, in the chunk's own insert (no round
      // trip of its own on PostgreSQL).
      let answered: (Hl7Outcome & { storedRow?: InboundMessageRow }) | undefined;
      const answer = (outcomes: ChangeOutcome[]) => {
        const patientOutcome = changes[0]?.at === 'PID' ? outcomes[0] : undefined;
        if (patientOutcome?.outcome === 'rejected') throw failureOf(patientOutcome.issue);
        const kept: Hl7Failure[] = [...p.warnings];
        const events: string[] = [];
        outcomes.forEach((outcome, i) => {
          if (outcome.outcome === 'rejected') kept.push(recordWarning(changes[i]!.at, outcome.issue));
          else events.push(...outcome.events);
        });
        const acked: Hl7Outcome = { ack: ackOf(message, undefined, kept), result: 'applied', events };
        const residentId = patientOutcome ? patientOutcome.id : (current?.id ?? null);
        const row = rowOf(source, p.text, messageOutcomeOf(acked, { records: recordsOf(outcomes), residentId, orgId, facilityId }));
        answered = row ? { ...acked, storedRow: row } : acked;
        return row ? [{ table: 'inbound_messages', rows: [row as unknown as Record<string, unknown>] }] : [];
      };
      const result = await applyChangeSet(trx, { orgId, facilityId, mode: 'batch', actor: HL7_ACTOR, emitEvents: true, changes }, {
        requestId: `hl7:${t.controlId}`.slice(0, 64),
        chunkSize: changes.length + 1,
        ...(tickedAt ? { tickedAt } : {}),
        ...(subscriptions && facilityId === facility.id ? { subscriptions } : {}),
        alongside: answer,
        ...(current ? { known: [{ type: 'Patient' as const, row: current.row, identifier: t.match }] } : {}),
        ...(identifiers ? { identifiers } : {}),
      });
      // A message that changes nothing (no change to apply) is answered and stored here.
      if (!answered) {
        const rows = answer(result.outcomes);
        if (rows.length) await source.store!.insert(trx, [answered!.storedRow!]);
      }
      const { storedRow, ...outcome } = answered!;
      return storedRow ? { ...outcome, stored: storedRow } : outcome;
    });
  } catch (error) {
    if (error instanceof AlreadyApplied) return storedAlone(db, p.text, { ack: ackOf(message, undefined, p.warnings), result: 'duplicate', events: [] }, source, facility, onError);
    if (error instanceof FacilityCodeMoved) {
      forgetFacilityCode(db, t.facilityCode);
      const facility = await findFacilityByHl7Code(db, t.facilityCode);
      return facility ? applyOne(db, { ...p, facility, remembered: false }, source, onError) : storedAlone(db, p.text, unknownFacility(message, t), source, undefined, onError);
    }
    if (error instanceof Hl7Failure) return storedAlone(db, p.text, refused(ackOf(message, error)), source, facility, onError);
    // Another connection applied the same control id first: it is applied, once.
    if (await alreadyApplied(db, orgId, t).catch(() => false)) return storedAlone(db, p.text, { ack: ackOf(message), result: 'duplicate', events: [] }, source, facility, onError);
    onError?.(error as Error);
    return storedAlone(db, p.text, { ack: ackOf(message, internalFailure()), result: 'failed', events: [] }, source, facility, onError);
  }
}

/**
 * Consecutive resident-only messages for one facility, queued on a connection (a sender that
 * does not wait for each ACK): applied in one transaction as a batch ChangeSet, so each
 * message still succeeds or fails on its own, in order, with its control id recorded beside it.
 */
async function applyRun(db: Knex, run: Ready[], source: Hl7Source, onError?: (error: Error) => void): Promise<Hl7Outcome[]> {
  const { org_id: orgId, id: facilityId } = run[0]!.facility;
  try {
    return await db.transaction(async (trx) => {
      // A remembered facility must still have its code (else each message is applied alone, below, and reads it afresh).
      const first = run[0]!;
      if (first.remembered && ((await stillNamedBy(trx, first.facility.id, first.translation.facilityCode)) as unknown[]).length === 0) throw new FacilityCodeMoved();
      const stored = (await trx('hl7_applied_messages').where({ org_id: orgId }).whereIn('control_id', run.map((p) => p.translation.controlId.slice(0, 199))).select('sending_application', 'control_id')) as Array<{ sending_application: string; control_id: string }>;
      const seen = new Set(stored.map((r) => `${orgId}|${r.sending_application}|${r.control_id}`));
      const todo = run.filter((p) => !seen.has(controlKey(orgId, p.translation)));
      const result = todo.length
        ? await applyChangeSet(trx, { orgId, facilityId, mode: 'batch', actor: HL7_ACTOR, emitEvents: true, changes: todo.map((p) => ({ resource: p.translation.patient!, match: { identifier: p.translation.match }, at: 'PID' })) }, { requestId: `hl7:${todo[0]!.translation.controlId}`.slice(0, 64) })
        : { outcomes: [] };
      const byKey = new Map(todo.map((p, i) => [controlKey(orgId, p.translation), result.outcomes[i]!]));
      const applied = todo.filter((p) => byKey.get(controlKey(orgId, p.translation))!.outcome !== 'rejected');
      for (let i = 0; i < applied.length; i += 200) await trx('hl7_applied_messages').insert(applied.slice(i, i + 200).map((p) => appliedRow(orgId, p.translation)));
      const outcomes = run.map((p): Hl7Outcome => {
        const outcome = byKey.get(controlKey(orgId, p.translation));
        let answered: Hl7Outcome;
        if (!outcome) answered = { ack: ackOf(p.message, undefined, p.warnings), result: 'duplicate', events: [] };
        else if (outcome.outcome === 'rejected') answered = refused(ackOf(p.message, failureOf(outcome.issue)));
        else answered = { ack: ackOf(p.message, undefined, p.warnings), result: 'applied', events: outcome.events };
        const written = outcome && outcome.outcome !== 'rejected' ? { records: recordsOf([outcome]), residentId: outcome.id } : {};
        const row = rowOf(source, p.text, messageOutcomeOf(answered, { ...written, orgId, facilityId }));
        return row ? { ...answered, stored: row } : answered;
      });
      // Every message of the run and its outcome, in the run's transaction.
      if (source.store) await source.store.insert(trx, outcomes.map((o) => o.stored!));
      return outcomes;
    });
  } catch {
    // Whatever failed the run, each message gets its own chance (and its own answer).
    const outcomes: Hl7Outcome[] = [];
    for (const p of run) outcomes.push(await applyOne(db, p, source, onError));
    return outcomes;
  }
}

/** Messages of one connection, in the order received: each answered, in that order. */
export interface Hl7Source {
  /** The facility (HL7 code) the sending source is bound to, if exactly one (MLLP_SOURCE_FACILITIES): where a message naming none goes. */
  boundFacilityCode?: string | undefined;
  /** The message store: each message is stored with its outcome (in its transaction when applied). */
  store?: MessageStore | undefined;
  /** The sender's address (MLLP). */
  peer?: string | undefined;
  /** A reprocess of a stored message: its outcome is stored as a row linked to the original, not as a new message. */
  reprocessOf?: { original: ReprocessedOriginal; by: string } | undefined;
}

export async function applyHl7Texts(db: Knex, texts: string[], onError?: (error: Error) => void, source: Hl7Source = {}): Promise<Hl7Outcome[]> {
  const facilities = new Map<string, Promise<NamedFacility | undefined>>();
  const prepared: Prepared[] = [];
  for (const text of texts) prepared.push(await prepare(db, text, facilities, source));
  const outcomes: Hl7Outcome[] = [];
  let i = 0;
  while (i < prepared.length) {
    const p = prepared[i]!;
    if (p.done) {
      outcomes.push(await storedAlone(db, p.text, p.done, source, p.facility, onError));
      i++;
      continue;
    }
    // A run: resident-only messages of the same facility, no control id twice.
    const keys = new Set<string>();
    let j = i;
    while (j < prepared.length) {
      const q = prepared[j]!;
      if (q.done || !residentOnly(q) || q.facility.id !== p.facility.id || keys.has(controlKey(q.facility.org_id, q.translation))) break;
      keys.add(controlKey(q.facility.org_id, q.translation));
      j++;
    }
    if (j - i <= 1) {
      outcomes.push(await applyOne(db, p, source, onError));
      i++;
    } else {
      outcomes.push(...(await applyRun(db, prepared.slice(i, j) as Ready[], source, onError)));
      i = j;
    }
  }
  source.store?.counted(outcomes.flatMap((o) => (o.stored ? [o.stored] : [])));
  return outcomes;
}

export async function applyHl7Text(db: Knex, text: string, onError?: (error: Error) => void, source: Hl7Source = {}): Promise<Hl7Outcome> {
  return (await applyHl7Texts(db, [text], onError, source))[0]!;
}

