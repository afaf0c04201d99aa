// `eligibility check` and `eligibility log`: an operator asks the payers now, and reads what
// every exchange gave. A check runs in this process through the same queue and worker as the
// service's (eligibility-worker.ts), so it works whether or not a service runs, and a Coverage
// is never asked about by both at once. The raw 270 and 271 are printed only with --raw: PHI.
import { readFileSync } from 'node:fs';
import { nowIso } from '../../db/clock.js';
import { findOrganization } from '../../organizations/organizations.js';
import { loadSigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { systemResolver } from '../../webhooks/ssrf-guard.js';
import { queueChecks } from '../../eligibility/check-queue.js';
import { readInquirySubject } from '../../eligibility/eligibility-inquiry.js';
import { EligibilityWorker } from '../../eligibility/eligibility-worker.js';
import { exchangesSince, listExchanges, type EligibilityOutcome, type LoggedExchange } from '../../eligibility/exchange-log.js';
import { isUuid } from '../../db/uuid.js';
import { positiveInteger, uuidOption, UsageError, type Command } from '../command.js';

export interface CheckReport {
  coverage_id: string;
  outcome: EligibilityOutcome;
  /** Coverage.status after the check. */
  status: string | null;
  detail: string;
  /** An error the service keeps retrying (the check stays queued). */
  retrying?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const eligibilityCheck: Command = {
  name: 'eligibility check',
  summary: 'Ask the payers now about one Coverage or every Coverage of a facility (X12 270 over CAQH CORE), and print what each answer gave.',
  usage: 'eligibility check --org ORG --facility FAC (--coverage ID | --all) [--timeout SECONDS] [--json]',
  options: { org: { type: 'string' }, facility: { type: 'string' }, coverage: { type: 'string' }, all: { type: 'boolean' }, timeout: { type: 'string' } },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, 'org');
    const facilityId = uuidOption(args, 'facility');
    const timeoutMs = positiveInteger(args, 'timeout', 60) * 1000;
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    if (!(await db('facilities').where({ id: facilityId, org_id: orgId }).first('id'))) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    if (Boolean(args.values.coverage) === Boolean(args.values.all)) throw new UsageError('give either --coverage ID or --all');
    let ids: string[];
    if (typeof args.values.coverage === 'string') {
      const id = args.values.coverage.trim().toLowerCase();
      if (!isUuid(id)) throw new UsageError(`--coverage must be a Coverage id (a UUID), got "${args.values.coverage}"`);
      if (!(await db('coverage').where({ id, org_id: orgId, facility_id: facilityId }).first('id'))) throw new UsageError(`no Coverage ${id} in facility ${facilityId}`);
      ids = [id];
    } else ids = (await db('coverage').where({ org_id: orgId, facility_id: facilityId }).orderBy('seq').pluck('id')) as string[];
    const reports = new Map<string, CheckReport>();
    const asked: string[] = [];
    for (const id of ids) {
      const reading = await readInquirySubject(db, id);
      if ('notCheckable' in reading) reports.set(id, { coverage_id: id, outcome: 'not_checkable', status: reading.coverageStatus ?? null, detail: reading.notCheckable });
      else if ('subject' in reading) asked.push(id);
    }
    if (asked.length) {
      const since = nowIso();
      await db.transaction((trx) => queueChecks(trx, asked.map((coverageId) => ({ coverageId, orgId, facilityId, trigger: 'operator' as const })), since));
      const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
      const quiet = { info: () => undefined, warn: () => undefined, error: (o: object, message: string) => process.stderr.write(`${message}\n`) };
      const worker = new EligibilityWorker({
        db,
        config: { ...cli.config.eligibility, pollIntervalMs: 200 },
        allowPrivateTargets: cli.config.webhooks.allowPrivateTargets,
        cipher,
        resolve: systemResolver,
        logger: quiet as never,
        ...(cli.config.eligibility.caFile ? { ca: readFileSync(cli.config.eligibility.caFile, 'utf8') } : {}),
      });
      worker.start({ only: asked });
      const deadline = Date.now() + timeoutMs;
      let answered = new Map<string, LoggedExchange>();
      try {
        for (;;) {
          answered = await exchangesSince(db, asked, since);
          cli.progress(`\r${answered.size}/${asked.length} answered`);
          if (answered.size === asked.length || Date.now() >= deadline) break;
          await sleep(200);
        }
      } finally {
        await worker.stop();
        cli.progress('\n');
      }
      for (const id of asked) {
        const exchange = answered.get(id);
        reports.set(
          id,
          exchange
            ? { coverage_id: id, outcome: exchange.outcome, status: exchange.coverage_status, detail: exchange.detail, ...(exchange.retrying ? { retrying: true } : {}) }
            : { coverage_id: id, outcome: 'error', status: null, detail: `no answer within ${timeoutMs / 1000} s; the check stays queued and the service asks again`, retrying: true },
        );
      }
    }
    const checks = ids.map((id) => reports.get(id)!).filter(Boolean);
    const counts: Record<string, number> = {};
    for (const c of checks) counts[c.outcome] = (counts[c.outcome] ?? 0) + 1;
    return { checks, counts };
  },
  format: (r: { checks: CheckReport[] }) => r.checks.map((c) => `${c.coverage_id}  ${c.outcome.padEnd(13)} ${(c.status ?? '-').padEnd(10)} ${c.detail}`).join('\n') || 'the facility has no Coverage',
};

export const eligibilityLog: Command = {
  name: 'eligibility log',
  summary: 'Every eligibility exchange of the organization, newest first: trigger, times, outcome, AAA/999/CORE codes, control numbers (the raw 270 and 271 only with --raw: they hold PHI).',
  usage: 'eligibility log --org ORG [--coverage ID] [--facility FAC] [--since ISO-TIME] [--limit N] [--raw] [--json]',
  options: { org: { type: 'string' }, coverage: { type: 'string' }, facility: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' }, raw: { type: 'boolean' } },
  async run(args, cli) {
    const orgId = uuidOption(args, 'org');
    const since = args.values.since;
    if (since !== undefined && (typeof since !== 'string' || Number.isNaN(Date.parse(since)))) throw new UsageError(`--since must be an ISO 8601 time such as 2026-11-01T00:00:00Z, got "${since}"`);
    const exchanges = await listExchanges(await cli.db(), {
      orgId,
      ...(args.values.coverage !== undefined ? { coverageId: uuidOption(args, 'coverage') } : {}),
      ...(args.values.facility !== undefined ? { facilityId: uuidOption(args, 'facility') } : {}),
      ...(typeof since === 'string' ? { since: new Date(since).toISOString() } : {}),
      limit: Math.min(positiveInteger(args, 'limit', 100), 10_000),
      raw: args.values.raw === true,
    });
    return { exchanges };
  },
  format: (r: { exchanges: LoggedExchange[] }) =>
    r.exchanges.map((e) => `${e.finished_at}  ${e.coverage_id}  ${e.trigger.padEnd(9)} ${e.outcome.padEnd(13)}${e.retrying ? ' (retrying)' : ''} ${e.detail}${e.control_number ? ` [ISA13 ${e.control_number}]` : ''}`).join('\n') || 'no exchange',
};
