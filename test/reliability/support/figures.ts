// The figures of one run of the suite (one database): what was sent, what came back. Printed
// as one line at the end and, when RELIABILITY_FIGURES_FILE is set, written there as JSON for
// the runner to add up across SQLite and PostgreSQL.
import { writeFileSync } from 'node:fs';
import { testDatabaseKind } from '../../support/database.js';

export interface Figures {
  database: string;
  requests: number;
  responses5xx: number;
  fuzz: { seed: number | null; requests: number; statuses: Record<string, number> };
  tenancy: { worlds: number; cases: number; requests: number };
  token: { stuffingAttempts: number; throttled: number; timingAttempts: number; timing: Record<string, number> };
  secrets: { searched: number; places: number; found: number };
  metrics: { scrapes: number; failures: number };
  ingest: { bundles: number; lines: number; responses5xx: number; partialWrites: number };
  /** HL7 v2 over MLLP (ADT; clinical: ORU, ORM, whole-record ADT) and X12 271: malformed messages sent, answers missing, partial writes. */
  feeds: { hl7: number; clinical: number; x12: number; unanswered: number; partialWrites: number; disconnects: number; lost?: number };
  /** Messages answered but missing from the message store (issue 42). */
  lost?: number;
  /** PostgreSQL only: null when the world did not run. */
  churn?: ChurnFigures | null;
}

/** The instance-churn world (instance-churn.reliability.ts): several instances, one SIGKILLed in turn. */
export interface ChurnFigures {
  seed: number;
  seconds: number;
  instances: number;
  kills: number;
  restarts: number;
  /** Answers received (HTTP and MLLP ACKs), by HTTP status. */
  requests: number;
  statuses: Record<string, number>;
  /** Connections refused or cut because their instance was killed (expected, counted). */
  connectionFailures: number;
  /** Connections a live instance failed, or answers that broke a promise (must be 0). */
  unexpectedFailures: number;
  responses5xx: number;
  documented503: number;
  hl7: { sent: number; acked: number; resent: number };
  bundles: { sent: number; ok: number; resent: number };
  reads: number;
  webhooks: { events: number; deliveries: number; arrivals: number; duplicates: number; interrupted: number; afterStall: number; failedOnPurpose: number; lost: number };
  exports: { completed: number; takenOver: number; resources: number };
  eligibility: { checks: number; exchanges: number; askedTwice: number };
  token: { limit: number; attempts: number; issued: number; throttled: number };
  lostWrites: number;
  appliedTwice: number;
}

export const figures: Figures = {
  database: testDatabaseKind === 'postgres' ? 'PostgreSQL' : 'SQLite',
  requests: 0,
  responses5xx: 0,
  fuzz: { seed: null, requests: 0, statuses: {} },
  tenancy: { worlds: 0, cases: 0, requests: 0 },
  token: { stuffingAttempts: 0, throttled: 0, timingAttempts: 0, timing: {} },
  secrets: { searched: 0, places: 0, found: 0 },
  metrics: { scrapes: 0, failures: 0 },
  ingest: { bundles: 0, lines: 0, responses5xx: 0, partialWrites: 0 },
  feeds: { hl7: 0, clinical: 0, x12: 0, unanswered: 0, partialWrites: 0, disconnects: 0 },
};

export function summaryLine(f: Figures): string {
  return [
    `requests fuzzed ${f.fuzz.requests} (seed ${f.fuzz.seed ?? '-'})`,
    `tenancy worlds ${f.tenancy.worlds} / cases ${f.tenancy.cases}`,
    `token attempts ${f.token.stuffingAttempts + f.token.timingAttempts} (${f.token.throttled} throttled)`,
    `secrets searched ${f.secrets.searched} in ${f.secrets.places} places (found ${f.secrets.found})`,
    `metrics scrapes ${f.metrics.scrapes} (${f.metrics.failures} bad)`,
    `malformed ingest: ${f.ingest.bundles} Bundles + ${f.ingest.lines} NDJSON lines (${f.ingest.responses5xx} 5xx, ${f.ingest.partialWrites} partial writes)`,
    `malformed feeds: ${f.feeds.hl7} HL7 ADT + ${f.feeds.clinical} HL7 ORU/ORM/whole-record ADT + ${f.feeds.x12} X12 (${f.feeds.unanswered} unanswered, ${f.feeds.partialWrites} partial writes, ${f.feeds.disconnects} abrupt disconnects survived, ${(f.feeds.lost ?? 0) + (f.lost ?? 0)} not in the message store)`,
    ...(f.churn
      ? [`instance churn: ${f.churn.kills} SIGKILLs of ${f.churn.instances} instances in ${f.churn.seconds} s, ${f.churn.hl7.acked} HL7 AA + ${f.churn.bundles.ok} Bundles kept (lost ${f.churn.lostWrites}, applied twice ${f.churn.appliedTwice}), ${f.churn.webhooks.events} events delivered (${f.churn.webhooks.duplicates} duplicates, lost ${f.churn.webhooks.lost}), ${f.churn.exports.completed} exports (${f.churn.exports.takenOver} taken over), ${f.churn.eligibility.checks} checks (${f.churn.eligibility.askedTwice} asked more than once), tokens ${f.churn.token.issued}/${f.churn.token.attempts} under a limit of ${f.churn.token.limit}, ${f.churn.connectionFailures} connections cut by kills, ${f.churn.responses5xx} 5xx`]
      : []),
    `requests in all ${f.requests}`,
    `5xx found ${f.responses5xx}`,
  ].join(', ');
}

export function publishFigures(): void {
  console.log(`\nreliability [${figures.database}]: ${summaryLine(figures)}`);
  const file = process.env.RELIABILITY_FIGURES_FILE;
  if (file) writeFileSync(file, JSON.stringify(figures, null, 2));
}
