// A 271 interchange, start to finish: its subscriber loops (eligibility-271.ts), each matched to
// a Coverage (coverage-matching.ts) and translated into that Coverage with its new status, payor
// and period, applied through applyChangeSet (which versions real changes and emits
// coverage.updated in the same transaction). The answer lists every loop that is not applied.
//
// The Coverages are read outside applyChangeSet's transaction, so each change carries the
// version it was computed from (ifMatch). If another import (a FHIR feed, another 271) wrote
// the Coverage in between, the change is a conflict instead of overwriting that write: the
// loop is read and computed again from the Coverage as it now is, up to CONFLICT_RETRIES
// times, then listed in `conflicts`; the other loops apply regardless.
//
//   EB01 1 (active coverage)                         status active
//   EB01 6 (inactive) and no EB01 1                  status cancelled
//   a plan end date (DTP*291 RD8, DTP*347) in the past  status cancelled
//   NM1*PR (loop 2120, else 2100A)                   payor (a 2120 NM1*PR's id: the payer id too)
//   DTP*291 / DTP*346 plan begin                     period.start
//   AAA (rejection)                                  nothing changes; listed in `rejected`
//
// Every loop applied to a Coverage, and every rejected (AAA) loop that matches one, is also kept
// as that Coverage's CoverageEligibilityResponse (eligibility-response.ts: the benefits, or the
// AAA errors). It is written in the change set of the loop's Coverage change, requiring it (so a
// loop listed in `conflicts` leaves nothing): one transaction, one wait for the organization's
// ingest lock and one read of the records, per round of loops (a real-time check is one loop).
// It is identified by the loop's place in the 271 (sender, ISA13, ST02,
// HL01) and the Coverage: the same 271 again leaves it unchanged; sent for another facility, it
// answers that facility's Coverage with a response of its own.
import type { Knex } from 'knex';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { ResourceChange } from '../ingest/change-set.js';
import { coverageDetailElements } from '../ingest/mapping/coverage.js';
import { CoverageMatcher, type CoverageRow } from './coverage-matching.js';
import { subscriberLoops, type SubscriberLoop } from './eligibility-271.js';
import { eligibilityResponse, responseKey, X12_LOOP_SYSTEM } from './eligibility-response.js';

export interface LoopReport {
  at: string;
  trace: string | null;
  member_id: string | null;
  issue: string;
}

export interface EligibilitySummary {
  matched: number;
  updated: number;
  unchanged: number;
  unmatched: LoopReport[];
  rejected: LoopReport[];
  /** Loops whose Coverage another import kept changing while this one was applied: nothing of them was written. */
  conflicts: LoopReport[];
  events: number;
  /** CoverageEligibilityResponses kept (new or changed; the same 271 again keeps none). */
  responses: number;
}

/**
 * What applying one interchange did: its summary (what an X12 answer shows), and the status each
 * Coverage it applied a loop to now has (the last loop's, when one Coverage is answered twice),
 * so the eligibility worker reports a check's outcome without reading the Coverage again.
 */
export interface EligibilityApplied {
  summary: EligibilitySummary;
  statuses: Map<string, string>;
}

/** Reads and recomputations of a loop after its first attempt, when its Coverage changed in between. */
export const CONFLICT_RETRIES = 3;

export interface EligibilityTarget {
  orgId: string;
  facilityId: string;
  actor: string;
  requestId?: string;
  /** Today (UTC, YYYY-MM-DD), for "a plan end date in the past". */
  today?: string;
}

function statusAfter(loop: SubscriberLoop, current: string, today: string): string {
  if (loop.planEnd && loop.planEnd < today) return 'cancelled';
  if (loop.eligibility.includes('1')) return 'active';
  if (loop.eligibility.includes('6')) return 'cancelled';
  return current;
}

/**
 * The whole Coverage as the loop leaves it: its row with the loop's status, payor and period.
 * Everything else is the row's as it is, the 270's details (type, class, relationship,
 * subscriber) included: applyChangeSet maps every column from this resource, so one left out
 * here would be erased by every 271.
 */
export function coverageAfter(row: CoverageRow, loop: SubscriberLoop, today: string): ResourceChange['resource'] {
  const beneficiary = `Patient/${row.resident_id}`;
  return {
    ...coverageDetailElements(row, beneficiary),
    resourceType: 'Coverage',
    ...(row.identifiers.length ? { identifier: row.identifiers } : {}),
    status: statusAfter(loop, row.status, today),
    beneficiary: { reference: beneficiary },
    // A payer named in the loop itself (2120) is the coverage's payer now: a new id is a change
    // of payer, which asks that payer in turn (eligibility/check-queue.ts).
    payor: [{ ...((loop.benefitPayerId ?? row.payor_id) ? { identifier: { value: loop.benefitPayerId ?? row.payor_id! } } : {}), display: loop.payer ?? row.payor_name }],
    subscriberId: row.subscriber_id,
    period: { start: loop.planStart ?? row.period_start, ...((loop.planEnd ?? row.period_end) ? { end: loop.planEnd ?? row.period_end! } : {}) },
    order: row.coverage_order,
  };
}

const report = (loop: SubscriberLoop, issue: string): LoopReport => ({ at: loop.at, trace: loop.trace ?? null, member_id: loop.memberId ?? null, issue });

/** A loop of one of the interchanges applied together. */
interface Placed {
  loop: SubscriberLoop;
  /** The interchange it came in (its summary). */
  of: number;
  /** Its place among all the loops applied together (interchange by interchange, in order), to keep their order across rounds. */
  index: number;
}

/** A loop whose CoverageEligibilityResponse is kept, with the Coverage it answered. */
interface Responding extends Placed {
  coverage: CoverageRow;
}

interface PendingLoop extends Placed {
  retries: number;
}

/** `interchange`: the 271's text, or its loops when the caller has read them already (eligibility-exchange.ts). */
export async function applyEligibility(db: Knex, interchange: string | SubscriberLoop[], target: EligibilityTarget): Promise<EligibilitySummary> {
  return (await applyEligibilityTogether(db, [typeof interchange === 'string' ? subscriberLoops(interchange) : interchange], target))[0]!.summary;
}

/**
 * Several interchanges' loops for one facility applied together, as one would be (the same
 * rounds, one change set a round), each with its own summary: the eligibility worker's answers
 * that arrive together (eligibility/grouped-answers.ts) then take one transaction and one wait
 * for the organization's ingest lock between them, instead of one each.
 */
export async function applyEligibilityTogether(db: Knex, interchanges: SubscriberLoop[][], target: EligibilityTarget): Promise<EligibilityApplied[]> {
  const today = target.today ?? new Date().toISOString().slice(0, 10);
  const summaries: EligibilitySummary[] = interchanges.map(() => ({ matched: 0, updated: 0, unchanged: 0, unmatched: [], rejected: [], conflicts: [], events: 0, responses: 0 }));
  const statuses = interchanges.map(() => new Map<string, string>());
  let pending: PendingLoop[] = [];
  const rejected: Placed[] = [];
  let ordinal = 0;
  interchanges.forEach((loops, of) => {
    for (const loop of loops) {
      const index = ordinal++;
      if (loop.rejections.length) {
        summaries[of]!.rejected.push(report(loop, loop.rejections.map((r) => r.reason).join('; ')));
        rejected.push({ loop, of, index });
      } else pending.push({ loop, of, index, retries: 0 });
    }
  });
  /** Rejected (AAA) loops that match a Coverage: their responses go in with the first transaction. */
  let answeredRejections: Responding[] = [];
  if (rejected.length) {
    const matcher = await CoverageMatcher.load(db, target.orgId, target.facilityId, rejected.map((r) => r.loop));
    for (const item of rejected) {
      const match = matcher.match(item.loop);
      if (!('issue' in match)) answeredRejections.push({ ...item, coverage: match.coverage });
    }
  }
  // Rounds: read the pending loops' Coverages (outside applyChangeSet's transaction: each change
  // carries the version it was computed from), then one change set applies them with the
  // responses; the loops to read again wait for the next round. Without conflicts or repeated
  // Coverages there is exactly one round.
  while (pending.length > 0 || answeredRejections.length > 0) {
    const round: Array<PendingLoop & { coverage: CoverageRow }> = [];
    const later: PendingLoop[] = [];
    if (pending.length > 0) {
      const matcher = await CoverageMatcher.load(db, target.orgId, target.facilityId, pending.map((p) => p.loop));
      const answered = new Set<string>();
      for (const item of pending) {
        const match = matcher.match(item.loop);
        if ('issue' in match) {
          summaries[item.of]!.unmatched.push(report(item.loop, match.issue));
          continue;
        }
        // One Coverage answered by several loops: one per round, each computed from what the one
        // before wrote, as two files would be; the last loop wins.
        if (answered.has(match.coverage.id)) {
          later.push(item);
          continue;
        }
        answered.add(match.coverage.id);
        round.push({ ...item, coverage: match.coverage });
      }
    }
    if (round.length === 0 && answeredRejections.length === 0) break;
    // One change set, in the loops' order: each loop's Coverage change followed by its
    // response, which requires it (a conflict leaves neither), and the AAA loops' responses. A
    // Coverage answered twice keeps both responses, the later loop's in a later round.
    const changes: ResourceChange[] = [];
    const coverageChangeAt = new Map<PendingLoop, number>();
    const entries: Array<Responding & { item?: PendingLoop }> = [...answeredRejections, ...round.map((item) => ({ ...item, item }))].sort((a, b) => a.index - b.index);
    answeredRejections = [];
    const responseOf: number[] = [];
    for (const { loop, coverage, item, of } of entries) {
      if (item) {
        coverageChangeAt.set(item, changes.length);
        changes.push({ resource: coverageAfter(coverage, loop, today), match: { id: coverage.id }, ifMatch: coverage.version_id, at: loop.at });
      }
      responseOf[changes.length] = of;
      changes.push({
        resource: eligibilityResponse(loop, coverage, today),
        match: { identifier: { system: X12_LOOP_SYSTEM, value: responseKey(loop, coverage.id) } },
        ...(item ? { requires: changes.length - 1 } : {}),
        at: loop.at,
      });
    }
    const result = await applyChangeSet(db, { orgId: target.orgId, facilityId: target.facilityId, mode: 'batch', actor: target.actor, emitEvents: true, changes }, target.requestId ? { requestId: target.requestId } : {});
    for (const item of round) {
      const summary = summaries[item.of]!;
      const outcome = result.outcomes[coverageChangeAt.get(item)!]!;
      if (outcome.outcome === 'rejected' && outcome.issue.versionConflict) {
        if (item.retries < CONFLICT_RETRIES) later.push({ loop: item.loop, of: item.of, index: item.index, retries: item.retries + 1 });
        else summary.conflicts.push(report(item.loop, `Coverage/${item.coverage.id} was changed by another import each of the ${CONFLICT_RETRIES + 1} times this loop was applied; nothing of this loop was written: send the 271 again`));
      } else if (outcome.outcome === 'rejected') summary.rejected.push(report(item.loop, outcome.issue.diagnostics));
      else {
        summary.matched++;
        summary.events += outcome.events.length;
        // Unchanged or written, the Coverage has the status this loop computed.
        statuses[item.of]!.set(item.coverage.id, statusAfter(item.loop, item.coverage.status, today));
        if (outcome.outcome === 'unchanged') summary.unchanged++;
        else summary.updated++;
      }
    }
    result.outcomes.forEach((outcome, i) => {
      const of = responseOf[i];
      if (of === undefined) return;
      if (outcome.outcome === 'created' || outcome.outcome === 'updated') summaries[of]!.responses++;
      // A response is built from a Coverage this 271 matched in this facility: it is refused
      // only with its loop's Coverage change.
      else if (outcome.outcome === 'rejected' && !outcome.issue.requires) throw new Error(`a CoverageEligibilityResponse was refused: ${outcome.issue.diagnostics}`);
    });
    pending = later.sort((a, b) => a.index - b.index);
  }
  return summaries.map((summary, i) => ({ summary, statuses: statuses[i]! }));
}
