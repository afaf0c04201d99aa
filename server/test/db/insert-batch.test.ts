// The inserts of one transaction gathered and written together: on PostgreSQL one statement
// (data-modifying CTEs), whose rows may reference rows of an earlier part; on SQLite one
// insert after the other, in the order added, each prepared once on the transaction's
// connection. Either way, the same rows land, or none.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../test/support/database.js';
import { InsertBatch } from '../../src/db/insert-batch.js';

describe('an insert batch', function () {
  this.timeout(30_000);
  const knex = freshKnexForSuite(async (db) => {
    await db.schema.createTable('parents', (t) => {
      t.string('id', 8).primary();
    });
    await db.schema.createTable('children', (t) => {
      t.string('id', 8).primary();
      t.string('parent_id', 8).notNullable().references('id').inTable('parents');
      t.integer('n');
    });
  });
  let db: Knex;
  beforeEach(() => (db = knex()));
  afterEach(async () => {
    await db('children').delete();
    await db('parents').delete();
  });

  /** The statements a piece of work sends, as knex reports them. */
  async function statementsOf(work: () => Promise<void>): Promise<string[]> {
    const sent: string[] = [];
    const listener = (query: { sql: string }) => sent.push(query.sql);
    db.on('query', listener);
    try {
      await work();
    } finally {
      db.removeListener('query', listener);
    }
    return sent.filter((sql) => !/^(BEGIN|COMMIT|ROLLBACK)/i.test(sql));
  }

  it('writes every table added, children referencing parents of the same batch, in one statement on PostgreSQL', async () => {
    const sent = await statementsOf(() =>
      db.transaction(async (trx) => {
        const batch = new InsertBatch(trx);
        batch.add('parents', [{ id: 'p1' }, { id: 'p2' }]);
        batch.add('children', [{ id: 'c1', parent_id: 'p1', n: 1 }, { id: 'c2', parent_id: 'p2', n: 2 }]);
        batch.add('children', []);
        await batch.flush();
      }),
    );
    expect(await db('children').orderBy('id').select('id', 'parent_id', 'n')).to.deep.equal([
      { id: 'c1', parent_id: 'p1', n: 1 },
      { id: 'c2', parent_id: 'p2', n: 2 },
    ]);
    // On SQLite the inserts run prepared on the transaction's connection, not through knex.
    expect(sent).to.have.length(testDatabaseKind === 'postgres' ? 1 : 0);
  });

  it('runs a read after the inserts and returns its rows: on PostgreSQL as the same statement', async () => {
    await db('parents').insert({ id: 'old' });
    let read: unknown[] | undefined;
    const sent = await statementsOf(() =>
      db.transaction(async (trx) => {
        const batch = new InsertBatch(trx);
        batch.add('parents', [{ id: 'p1' }]);
        batch.add('children', [{ id: 'c1', parent_id: 'p1', n: 1 }]);
        read = await batch.flush(trx('parents').where({ id: 'old' }).select('id').toSQL());
      }),
    );
    expect(read).to.deep.equal([{ id: 'old' }]);
    expect(await db('children').pluck('id')).to.deep.equal(['c1']);
    expect(sent).to.have.length(1); // PostgreSQL: the one statement; SQLite: the read (the inserts run prepared)
  });

  it('writes nothing when a part is refused: the transaction fails whole', async () => {
    const attempt = db.transaction(async (trx) => {
      const batch = new InsertBatch(trx);
      batch.add('parents', [{ id: 'p1' }]);
      batch.add('children', [{ id: 'c1', parent_id: 'p1' }, { id: 'c1', parent_id: 'p1' }]);
      await batch.flush();
    });
    let failed = false;
    await attempt.catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(Number((await db('parents').count({ n: '*' }))[0]!.n)).to.equal(0);
  });

  it('splits what is too large for one statement, and flushes only once what was added', async () => {
    const parents = Array.from({ length: 40_000 }, (_, i) => ({ id: `p${i}` }));
    await db.transaction(async (trx) => {
      const batch = new InsertBatch(trx);
      batch.add('parents', parents);
      batch.add('children', [{ id: 'c1', parent_id: 'p39999', n: 7 }]);
      await batch.flush();
      await batch.flush();
    });
    expect(Number((await db('parents').count({ n: '*' }))[0]!.n)).to.equal(40_000);
    expect(Number((await db('children').count({ n: '*' }))[0]!.n)).to.equal(1);
  });
});
