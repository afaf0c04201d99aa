// applyChangeSet: the only code that writes resource rows and their events. It matches each
// change to the record it updates (by ofctx id, or by business identifier organization-wide),
// maps the FHIR resource to the row's columns, and writes only real changes: a new row is
// version 1; a change of any column bumps version_id by exactly 1 and sets last_updated; an
// identical re-send writes nothing, bumps nothing and emits nothing. The events of the
// changes (change-events.ts, its EVENT TABLE) are queued in the same transaction as the rows
// (webhooks/event-outbox.ts), and every write is recorded in ingest_writes (the audit trail).
//
// The parts, one concept each: prepared-change.ts (a change checked and mapped before anything
// is read), chunk-records.ts (what a change matches and references), version-check.ts
// (ifMatch), change-chunk.ts (versioned row writes), change-events.ts (the EVENT TABLE),
// business-identifiers.ts (the identifier index), write-chunk.ts (the chunk's writes, the
// ACCESS POLICY's new versions, eligibility checks and events), record-tables.ts.
//
// Changes are applied in chunks: one transaction per chunk (a `transaction` set is one chunk),
// with one identifier lookup and one row read per table for the whole chunk, so a stream of
// NDJSON lines costs a few statements per hundreds of resources. In a `batch` set every
// change still succeeds or fails on its own: each one is checked completely before anything
// of it is written, so a rejected change writes nothing and leaves its neighbours alone.
import type { Knex } from 'knex';
import { isPostgres } from '../db/database.js';
import { subscriptionsStatement, type MatchedSubscription } from '../webhooks/event-outbox.js';
import type { ChangeOutcome, ChangeSet, ChangeSetResult } from './change-set.js';
import { MappingIssue } from './mapping/resource-mapping.js';
import { tickIngestClock, tickIngestClockWith } from './ingest-clock.js';
import { prepare, type Prepared } from './prepared-change.js';
import { ChangeChunk } from './change-chunk.js';
import type { AlongsideRows } from './write-chunk.js';
import type { KnownRecord, ReadIdentifiers } from './chunk-records.js';

export interface ApplyOptions {
  /** The HTTP request (or CLI run) this change set came from, for the audit trail. */
  requestId?: string;
  /** Changes per transaction in batch mode. */
  chunkSize?: number;
  /**
   * The instant the caller's transaction already took from the ingest clock (with its own
   * first write: tickIngestClockWith); the first chunk uses it instead of ticking again.
   * Only inside the caller's transaction.
   */
  tickedAt?: string;
  /** The facility's subscriptions, read with that tick (PostgreSQL: `subscriptionsQuery` as one of its reads). */
  subscriptions?: MatchedSubscription[];
  /**
   * Rows of other tables written with the chunk's own, from its outcomes once every change is
   * decided (in its one insert statement on PostgreSQL when the chunk only adds rows): the HL7
   * applier's message-store row, which is then no round trip of its own. A set of one chunk
   * only; throwing from it refuses the chunk (nothing of it is written).
   */
  alongside?: (outcomes: ChangeOutcome[]) => AlongsideRows;
  /** Records the caller read in its transaction already (the first chunk reads them no second time). */
  known?: KnownRecord[];
  /** Identifier rows the caller read in its transaction already, under the lock (the first chunk looks those values up no second time). */
  identifiers?: ReadIdentifiers;
}

const DEFAULT_CHUNK = 500;

/** The ingest clock's tick a chunk's transaction takes first (ingest-clock.ts), with the facility's subscriptions when it emits events. */
async function tickForChangeSet(trx: Knex.Transaction, set: Pick<ChangeSet, 'orgId' | 'facilityId' | 'emitEvents'>): Promise<{ tickedAt: string; subscriptions?: MatchedSubscription[] }> {
  if (set.emitEvents && isPostgres(trx as unknown as Knex)) {
    // The facility's subscriptions ride with the tick (one round trip fewer, and the
    // deliveries can then ride with the inserts).
    const tick = await tickIngestClockWith(trx, set.orgId, { reads: { subscriptions: subscriptionsStatement(trx, set.orgId, set.facilityId) } });
    return { tickedAt: tick.instant, subscriptions: tick.reads.subscriptions as MatchedSubscription[] };
  }
  return { tickedAt: await tickIngestClock(trx, set.orgId) };
}

async function applyChunk(db: Knex, set: ChangeSet, items: Prepared[], allOrNothing: boolean, options: ApplyOptions): Promise<Array<[number, ChangeOutcome]>> {
  // Inside the caller's own transaction (the HL7 applier records the control id in it), the
  // chunk runs in that transaction: a savepoint would cost two round trips per message, and
  // could not let the caller go on after an error anyway, since the error reaches it.
  const inCallersTransaction = (db as Knex.Transaction).isTransaction === true;
  const run = <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => (inCallersTransaction ? work(db as Knex.Transaction) : db.transaction(work));
  return run(async (trx) => {
    const { tickedAt: now, subscriptions } = inCallersTransaction && options.tickedAt !== undefined ? { tickedAt: options.tickedAt, subscriptions: options.subscriptions } : await tickForChangeSet(trx, set);
    const chunk = new ChangeChunk(trx, set, now, subscriptions);
    await chunk.load(items, options.known, options.identifiers);
    // Patients first, so the other resources of the chunk can reference them.
    const ordered = [...items].sort((a, b) => Number(b.mapping?.type === 'Patient') - Number(a.mapping?.type === 'Patient') || a.index - b.index);
    const outcomes: Array<[number, ChangeOutcome]> = [];
    for (const item of ordered) {
      if (item.issue) {
        outcomes.push([item.index, { at: item.change.at, outcome: 'rejected', issue: item.issue }]);
        continue;
      }
      const required = item.change.requires === undefined ? undefined : outcomes.find(([index]) => index === item.change.requires)?.[1];
      if (item.change.requires !== undefined && required === undefined) throw new Error(`change ${item.change.at} requires change ${item.change.requires}, which is not an earlier change of its chunk`);
      if (required?.outcome === 'rejected') {
        outcomes.push([item.index, { at: item.change.at, outcome: 'rejected', issue: { code: 'conflict', diagnostics: `not applied: the change it goes with (${required.at}) was not applied`, requires: true } }]);
        continue;
      }
      try {
        outcomes.push([item.index, chunk.apply(item)]);
      } catch (error) {
        if (!(error instanceof MappingIssue)) throw error;
        outcomes.push([item.index, { at: item.change.at, outcome: 'rejected', issue: error.issue }]);
      }
    }
    if (allOrNothing && outcomes.some(([, o]) => o.outcome === 'rejected')) {
      return outcomes.map(([index, o]): [number, ChangeOutcome] =>
        o.outcome === 'rejected'
          ? [index, o]
          : [index, { at: o.at, outcome: 'rejected', refused: true, issue: { code: 'invalid', diagnostics: 'not applied: another change of this transaction was rejected' } }],
      );
    }
    const alongside = options.alongside?.([...outcomes].sort(([a], [b]) => a - b).map(([, o]) => o));
    await chunk.flush(set.actor, options.requestId, alongside);
    return outcomes;
  });
}

/** Applies a change set: the one road by which every source (FHIR, HL7 v2, X12, the CLI) writes records. */
export async function applyChangeSet(db: Knex, changeSet: ChangeSet, options: ApplyOptions = {}): Promise<ChangeSetResult> {
  const prepared = changeSet.changes.map(prepare);
  const outcomes: ChangeOutcome[] = new Array(prepared.length);
  const size = changeSet.mode === 'transaction' ? Math.max(prepared.length, 1) : (options.chunkSize ?? DEFAULT_CHUNK);
  if (options.alongside && prepared.length > size) throw new Error('ApplyOptions.alongside needs a change set of one chunk');
  for (let start = 0, end = 0; start < prepared.length; start = end) {
    end = Math.min(start + size, prepared.length);
    // A change goes in the chunk of the change it requires (the one just before it).
    while (end < prepared.length && end > start + 1 && prepared[end]!.change.requires === end - 1) end--;
    const chunk = prepared.slice(start, end);
    const chunkOptions = start === 0 ? options : { ...options, tickedAt: undefined, subscriptions: undefined, known: undefined, identifiers: undefined };
    for (const [index, outcome] of await applyChunk(db, changeSet, chunk, changeSet.mode === 'transaction', chunkOptions)) outcomes[index] = outcome;
  }
  const result: ChangeSetResult = { outcomes, created: 0, updated: 0, unchanged: 0, rejected: 0, events: 0, committed: true };
  for (const outcome of outcomes) {
    if (outcome.outcome === 'rejected') {
      if (outcome.refused) result.committed = false;
      else result.rejected++;
    } else {
      result[outcome.outcome]++;
      result.events += outcome.events.length;
    }
  }
  if (changeSet.mode === 'transaction' && result.rejected > 0) {
    result.committed = false;
    result.created = result.updated = result.unchanged = result.events = 0;
  }
  return result;
}
