// The figures of one run of the webhook reliability tests (one database), printed as one
// summary line when the run ends and, when RELIABILITY_WEBHOOK_FIGURES_FILE is set, written
// there as JSON (for a runner to add up across SQLite and PostgreSQL).
import { writeFileSync } from 'node:fs';
import { testDatabaseKind } from '../../../support/database.js';

export interface LatencyFigures {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

export const webhookFigures = {
  database: testDatabaseKind === 'postgres' ? 'PostgreSQL' : 'SQLite',
  seed: null as number | null,
  runs: 0,
  events: 0,
  deliveries: 0,
  attempts: 0,
  /** Faults the receivers applied (per request) plus refused connections and down phases. */
  faults: {} as Record<string, number>,
  arrivals: 0,
  delivered: 0,
  duplicates: 0,
  concurrentDuplicates: 0,
  /** Visibly not delivered, for a reason on record: the three below. */
  failedAsExpected: 0,
  failedAfterSchedule: 0,
  failedOn410: 0,
  cancelledBy410: 0,
  lost: 0,
  errorClasses: {} as Record<string, number>,
  /** The always-healthy subscription's arrival latency while the others misbehave. */
  healthyLatency: null as LatencyFigures | null,
  isolation: {} as Record<string, LatencyFigures & { note?: string }>,
  crash: null as null | { kills: number; events: number; deliveries: number; interrupted: number; duplicates: number; lost: number },
  twoInstances: null as null | { events: number; deliveries: number; ms: number; attemptsPerWorker: number[]; interrupted: number; duplicates: number; concurrentDuplicates: number; lost: number },
  ssrf: { refused: 0, rebindingBlocked: 0, redirectRefused: 0, attemptTimeBlocked: 0, overrideAccepted: 0 },
};

export function latency(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
}

export function totalFaults(): number {
  return Object.values(webhookFigures.faults).reduce((a, b) => a + b, 0);
}

export function webhookSummaryLine(): string {
  const f = webhookFigures;
  const crash = f.crash ? `; crash: ${f.crash.kills} SIGKILLs, ${f.crash.deliveries} deliveries, ${f.crash.interrupted} interrupted, ${f.crash.duplicates} duplicates, lost ${f.crash.lost}` : '';
  const two = f.twoInstances
    ? `; two instances: ${f.twoInstances.deliveries} deliveries in ${f.twoInstances.ms} ms, ${f.twoInstances.duplicates} duplicates (${f.twoInstances.concurrentDuplicates} concurrent), lost ${f.twoInstances.lost}`
    : '';
  const healthy = f.healthyLatency ? `, healthy latency p95 ${f.healthyLatency.p95} ms / max ${f.healthyLatency.max} ms` : '';
  return (
    `events ${f.events}, deliveries ${f.deliveries}, faults injected ${totalFaults()}, arrivals ${f.arrivals}, duplicates ${f.duplicates}, ` +
    `failed-as-expected ${f.failedAsExpected} (${f.failedAfterSchedule} after their schedule, ${f.failedOn410} on 410, ${f.cancelledBy410} cancelled by a 410), ` +
    `lost ${f.lost}${healthy} (seed ${f.seed ?? '-'}, ${f.runs} runs)` +
    `${crash}${two}; ssrf refused ${f.ssrf.refused} at registration, ${f.ssrf.attemptTimeBlocked + f.ssrf.rebindingBlocked} at attempt time`
  );
}

// Root hook: when the run ends, print the figures of whatever ran.
after(function () {
  console.log(`\nwebhook reliability [${webhookFigures.database}]: ${webhookSummaryLine()}`);
  const file = process.env.RELIABILITY_WEBHOOK_FIGURES_FILE;
  if (file) writeFileSync(file, JSON.stringify(webhookFigures, null, 2));
});
