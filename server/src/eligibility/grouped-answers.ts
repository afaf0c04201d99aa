// The 271 answers of checks that arrive together, applied together: one change set, so one
// transaction and one wait for the organization's ingest lock (ingest/ingest-clock.ts) for all
// of them, where each check took its own. The ingest transactions of one organization run one
// at a time whatever we do; under a burst of checks (a month's rechecks, a facility's first
// Coverages) that lock, not the clearinghouse, set the pace.
//
// Answers for one facility that arrive in the same turn of the event loop go in together; those
// that arrive while a group is applied wait for it and go in the next. If a group fails, each of
// its answers is applied again on its own, so one answer that cannot be applied never fails
// the others (the worker retries it, eligibility-worker.ts).
import type { Knex } from 'knex';
import { applyEligibilityTogether, type EligibilityApplied, type EligibilityTarget } from '../x12/eligibility-applier.js';
import type { SubscriberLoop } from '../x12/eligibility-271.js';

interface Waiting {
  loops: SubscriberLoop[];
  resolve(applied: EligibilityApplied): void;
  reject(error: unknown): void;
}

interface Group {
  target: EligibilityTarget;
  waiting: Waiting[];
}

export class GroupedAnswers {
  /** The groups being applied or about to be, by facility (and what else the target says). */
  private readonly groups = new Map<string, Group>();

  constructor(private readonly db: Knex) {}

  /** Applies one 271's loops with the others arriving now; resolves with what was done of this 271's own. */
  apply(loops: SubscriberLoop[], target: EligibilityTarget): Promise<EligibilityApplied> {
    const key = JSON.stringify([target.orgId, target.facilityId, target.actor, target.today ?? null, target.requestId ?? null]);
    return new Promise((resolve, reject) => {
      const group = this.groups.get(key);
      if (group) {
        group.waiting.push({ loops, resolve, reject });
        return;
      }
      const started: Group = { target, waiting: [{ loops, resolve, reject }] };
      this.groups.set(key, started);
      this.next(key, started);
    });
  }

  private next(key: string, group: Group): void {
    setImmediate(() => {
      const batch = group.waiting;
      group.waiting = [];
      void this.applyBatch(batch, group.target).finally(() => {
        if (group.waiting.length > 0) this.next(key, group);
        else this.groups.delete(key);
      });
    });
  }

  private async applyBatch(batch: Waiting[], target: EligibilityTarget): Promise<void> {
    try {
      const applied = await applyEligibilityTogether(this.db, batch.map((w) => w.loops), target);
      batch.forEach((w, i) => w.resolve(applied[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const w of batch) {
        try {
          w.resolve((await applyEligibilityTogether(this.db, [w.loops], target))[0]!);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }
}
