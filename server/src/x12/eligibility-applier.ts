// A 271 interchange, start to finish: its subscriber loops (eligibility-271.ts), each matched to
// a Coverage (coverage-matching.ts) and translated into that Coverage with its new status, payor
// and period, applied through applyChangeSet (which versions real changes and emits
// coverage.updated in the same transaction). The answer lists every loop that is not applied.
//
//   EB01 1 (active coverage)                         status active
//   EB01 6 (inactive) and no EB01 1                  status cancelled
//   a plan end date (DTP*291 RD8, DTP*347) in the past  status cancelled
//   NM1*PR (loop 2120, else 2100A)                   payor
//   DTP*291 / DTP*346 plan begin                     period.start
//   AAA (rejection)                                  nothing changes; listed in `rejected`
import type { Knex } from 'knex';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { ResourceChange } from '../ingest/change-set.js';
import { CoverageMatcher, type CoverageRow } from './coverage-matching.js';
import { subscriberLoops, type SubscriberLoop } from './eligibility-271.js';

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
  events: number;
}

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

export function coverageAfter(row: CoverageRow, loop: SubscriberLoop, today: string): ResourceChange['resource'] {
  return {
    resourceType: 'Coverage',
    ...(row.identifiers.length ? { identifier: row.identifiers } : {}),
    status: statusAfter(loop, row.status, today),
    beneficiary: { reference: `Patient/${row.resident_id}` },
    payor: [{ display: loop.payer ?? row.payor_name }],
    subscriberId: row.subscriber_id,
    period: { start: loop.planStart ?? row.period_start, ...(loop.planEnd ? { end: loop.planEnd } : {}) },
    order: row.coverage_order,
  };
}

const report = (loop: SubscriberLoop, issue: string): LoopReport => ({ at: loop.at, trace: loop.trace ?? null, member_id: loop.memberId ?? null, issue });

export async function applyEligibility(db: Knex, text: string, target: EligibilityTarget): Promise<EligibilitySummary> {
  const loops = subscriberLoops(text);
  const today = target.today ?? new Date().toISOString().slice(0, 10);
  const summary: EligibilitySummary = { matched: 0, updated: 0, unchanged: 0, unmatched: [], rejected: [], events: 0 };
  const matcher = await CoverageMatcher.load(db, target.orgId, target.facilityId, loops);
  const changes: ResourceChange[] = [];
  const applied: SubscriberLoop[] = [];
  // One Coverage answered twice in one interchange: the later loop wins, as it would in two files.
  for (const loop of loops) {
    if (loop.rejections.length) {
      summary.rejected.push(report(loop, loop.rejections.map((r) => r.reason).join('; ')));
      continue;
    }
    const match = matcher.match(loop);
    if ('issue' in match) {
      summary.unmatched.push(report(loop, match.issue));
      continue;
    }
    summary.matched++;
    changes.push({ resource: coverageAfter(match.coverage, loop, today), match: { id: match.coverage.id }, at: loop.at });
    applied.push(loop);
  }
  if (changes.length === 0) return summary;
  const result = await applyChangeSet(db, { orgId: target.orgId, facilityId: target.facilityId, mode: 'batch', actor: target.actor, emitEvents: true, changes }, { requestId: target.requestId });
  result.outcomes.forEach((outcome, i) => {
    if (outcome.outcome === 'rejected') {
      summary.matched--;
      summary.rejected.push(report(applied[i]!, outcome.issue.diagnostics));
    } else if (outcome.outcome === 'unchanged') summary.unchanged++;
    else summary.updated++;
  });
  summary.events = result.events;
  return summary;
}
