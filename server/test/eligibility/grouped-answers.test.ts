// The eligibility worker's 271 answers that arrive together, applied together against a real
// database: one transaction for the group, each answer's own summary, and an answer that cannot
// be applied failing alone.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { byMrn, coverage, MRN, patient } from '../../../test/support/fhir-resources.js';
import { interchange271 } from '../../../test/support/x12.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { GroupedAnswers } from '../../src/eligibility/grouped-answers.js';
import { subscriberLoops } from '../../src/x12/eligibility-271.js';

describe('eligibility answers applied together', function () {
  this.timeout(60_000);
  let db: Knex;
  let orgId: string;
  let facilityId: string;
  freshKnexForSuite(async (opened) => {
    db = opened;
    await migrateToLatest(db);
    orgId = (await createOrganization(db, 'Grouped Org')).id;
    facilityId = (await createFacility(db, orgId, 'Grouped Home')).id;
  });

  /** The database, counting the transactions opened, and failing the first `failing` of them (a lost connection). */
  function observed(failing = 0): { db: Knex; transactions: () => number } {
    let opened = 0;
    const proxy = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return async (...args: unknown[]) => {
          if (opened++ < failing) throw new Error('connection terminated unexpectedly');
          return (target.transaction as (...a: unknown[]) => unknown)(...args);
        };
      },
    });
    return { db: proxy, transactions: () => opened };
  }
  async function coverages(prefix: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const mrn = `${prefix}-${i}`;
      const written = await applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'ehr', emitEvents: true, changes: [{ resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: 'p' }, { resource: coverage(byMrn(mrn), `${mrn}-COV`), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: `${mrn}-COV` } }, at: 'c' }] });
      ids.push((written.outcomes[1] as { id: string }).id);
    }
    return ids;
  }
  const target = () => ({ orgId, facilityId, actor: 'eligibility-check', today: '2026-11-30' });
  const answerFor = (coverageId: string, control: number, eligibility: string[]) => subscriberLoops(interchange271([{ trace: coverageId, memberId: 'M', eligibility }], control));

  it('answers arriving in one turn go in one transaction, each with its own summary and the status it left its Coverage with', async () => {
    const ids = await coverages('G-1', 2);
    const { db: counted, transactions } = observed();
    const answers = new GroupedAnswers(counted);
    const applied = await Promise.all([
      answers.apply(answerFor(ids[0]!, 301, ['6']), target()),
      answers.apply(answerFor('00000000-0000-4000-8000-00000000abcd', 302, ['6']), target()),
      answers.apply(answerFor(ids[1]!, 303, ['1']), target()),
    ]);
    const summaries = applied.map((a) => a.summary);
    expect(transactions()).to.equal(1);
    expect(summaries.map((s) => [s.matched, s.updated, s.unmatched.length, s.responses])).to.deep.equal([
      [1, 1, 0, 1],
      [0, 0, 1, 0],
      [1, 1, 0, 1],
    ]);
    expect(summaries[1]!.unmatched[0]!.trace).to.equal('00000000-0000-4000-8000-00000000abcd');
    const statuses = await db('coverage').whereIn('id', ids).select('id', 'status');
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).to.deep.equal({ [ids[0]!]: 'cancelled', [ids[1]!]: 'active' });
    // What the worker reports as the check's outcome, without reading the Coverage again.
    expect(applied.map((a) => Object.fromEntries(a.statuses))).to.deep.equal([{ [ids[0]!]: 'cancelled' }, {}, { [ids[1]!]: 'active' }]);
    expect(Number((await db('eligibility_responses').whereIn('coverage_id', ids).count({ n: '*' }).first())!.n)).to.equal(2);
  });

  it('an answer arriving while a group is applied goes in the next group', async () => {
    const ids = await coverages('G-2', 2);
    const { db: counted, transactions } = observed();
    const answers = new GroupedAnswers(counted);
    const first = answers.apply(answerFor(ids[0]!, 311, ['6']), target());
    await new Promise((resolve) => setImmediate(resolve));
    const second = answers.apply(answerFor(ids[1]!, 312, ['6']), target());
    const [a, b] = await Promise.all([first, second]);
    expect([a.summary.updated, b.summary.updated]).to.deep.equal([1, 1]);
    expect(transactions()).to.equal(2);
  });

  it('when the group cannot be applied, each answer is applied on its own; one that still fails fails alone', async () => {
    const ids = await coverages('G-3', 2);
    const once = observed(1);
    const answers = new GroupedAnswers(once.db);
    const applied = await Promise.all([answers.apply(answerFor(ids[0]!, 321, ['6']), target()), answers.apply(answerFor(ids[1]!, 322, ['6']), target())]);
    expect(applied.map((a) => [a.summary.updated, a.statuses.get(ids[applied.indexOf(a)]!)])).to.deep.equal([[1, 'cancelled'], [1, 'cancelled']]);
    expect(once.transactions()).to.equal(3);

    const more = await coverages('G-4', 2);
    // The group's transaction and the first answer's own fail; the second answer goes in.
    const twice = observed(2);
    const grouped = new GroupedAnswers(twice.db);
    const settled = await Promise.allSettled([grouped.apply(answerFor(more[0]!, 331, ['6']), target()), grouped.apply(answerFor(more[1]!, 332, ['6']), target())]);
    expect(settled[0]).to.include({ status: 'rejected' });
    expect(((settled[0] as PromiseRejectedResult).reason as Error).message).to.equal('connection terminated unexpectedly');
    expect(settled[1]).to.deep.include({ status: 'fulfilled' });
    expect(await db('coverage').whereIn('id', more).orderBy('status').pluck('status')).to.deep.equal(['active', 'cancelled']);
  });
});
