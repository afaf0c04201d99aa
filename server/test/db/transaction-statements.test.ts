// Statements run inside a transaction: on PostgreSQL a text that recurs becomes a named
// statement on the transaction's connection (parsed and planned once), a new text runs
// unnamed, and so does one to be planned with its values each time; on SQLite each text is
// prepared once and run on the transaction's connection, past knex's query runner; on both
// databases the rows are knex's, each execution with its own bindings, a finished transaction
// refuses a statement, and knex's query events still announce every statement.
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../test/support/database.js';
import { transactionRows } from '../../src/db/transaction-statements.js';
import { rawRows } from '../../src/db/database.js';

describe('statements run inside a transaction', function () {
  this.timeout(30_000);
  const knex = freshKnexForSuite(async (db) => {
    await db.schema.createTable('ledger', (t) => {
      t.increments('id');
      t.string('entry').notNullable();
    });
  });
  let db: Knex;
  beforeEach(() => (db = knex()));

  const insertReturning = (entry: string) => ['insert into ledger (entry) values (?) returning entry', [entry]] as const;

  it('answers the rows of each execution with its own bindings', async () => {
    const answers = await db.transaction(async (trx) => {
      const rows = [];
      for (const entry of ['first', 'second', 'third']) rows.push(...(await transactionRows<{ entry: string }>(trx, ...insertReturning(entry))));
      return rows;
    });
    expect(answers).to.deep.equal([
      { entry: 'first' },
      { entry: 'second' },
      { entry: 'third' },
    ]);
    expect((await db('ledger').orderBy('id').pluck('entry')).slice(-3)).to.deep.equal(['first', 'second', 'third']);
  });

  it('announces every statement as knex does', async () => {
    const seen: string[] = [];
    const listen = (query: { sql: string }) => seen.push(query.sql);
    db.on('query', listen);
    try {
      await db.transaction(async (trx) => {
        await transactionRows(trx, 'select count(*) as n from ledger where entry = ?', ['first']);
      });
    } finally {
      db.off('query', listen);
    }
    expect(seen.filter((sql) => /from ledger where entry/.test(sql))).to.have.length(1);
  });

  it('rolls back with its transaction', async () => {
    const before = Number((await db('ledger').count({ n: '*' }))[0]!.n);
    await db
      .transaction(async (trx) => {
        await transactionRows(trx, ...insertReturning('rolled back'));
        throw new Error('undo');
      })
      .catch((error: Error) => expect(error.message).to.equal('undo'));
    expect(Number((await db('ledger').count({ n: '*' }))[0]!.n)).to.equal(before);
  });

  it('refuses a statement once its transaction is finished, as knex does', async () => {
    let finished: Knex.Transaction | undefined;
    await db.transaction(async (trx) => {
      finished = trx;
    });
    const refused = await transactionRows(finished!, 'select count(*) as n from ledger', []).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).to.match(/Transaction query already complete/);
  });

  it('answers no rows for a statement that returns none, and binds dates and booleans as knex does', async () => {
    const insert = 'insert into ledger (entry) values (?) returning entry';
    const answers = await db.transaction(async (trx) => {
      const updated = await transactionRows(trx, 'update ledger set entry = ? where entry = ?', ['renamed', 'nothing of this name']);
      const ours = [];
      const knexs = [];
      for (const value of [true, false, new Date(86_400_000), 7]) {
        ours.push(...(await transactionRows<{ entry: string }>(trx, insert, [value])));
        knexs.push(...rawRows<{ entry: string }>(await trx.raw(insert, [value])));
      }
      return { updated, ours, knexs };
    });
    expect(answers.updated).to.deep.equal([]);
    expect(answers.ours).to.have.length(4);
    expect(answers.ours).to.deep.equal(answers.knexs);
  });

  it('on SQLite, refuses an undefined binding as knex does, writing nothing', async function () {
    if (testDatabaseKind !== 'sqlite') return this.skip();
    const before = Number((await db('ledger').count({ n: '*' }))[0]!.n);
    const refused = await db
      .transaction((trx) => transactionRows(trx, 'insert into ledger (entry) values (?) returning entry', [undefined]))
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(refused?.message).to.match(/Undefined binding/);
    expect(Number((await db('ledger').count({ n: '*' }))[0]!.n)).to.equal(before);
  });

  it('on SQLite, runs on the transaction\'s connection without knex\'s query runner, preparing a text once', async function () {
    if (testDatabaseKind !== 'sqlite') return this.skip();
    // A transaction's client is made from the client's class, not from the client itself.
    const client = Object.getPrototypeOf(db.client) as { _query: (...args: unknown[]) => unknown };
    const knexQuery = client._query;
    let runnerCalls = 0;
    let prepares = 0;
    client._query = function (...args: unknown[]) {
      runnerCalls++;
      return knexQuery.apply(this, args);
    };
    try {
      const answers = await db.transaction(async (trx) => {
        const connection = (await trx.client.acquireConnection()) as { prepare: (sql: string) => unknown };
        const prepare = connection.prepare;
        connection.prepare = function (sql: string) {
          prepares++;
          return prepare.call(this, sql);
        };
        try {
          const rows = [];
          for (const entry of ['kept-1', 'kept-2', 'kept-3']) rows.push(...(await transactionRows<{ entry: string }>(trx, 'insert into ledger (entry) values (?) returning entry /* kept once */', [entry])));
          return rows;
        } finally {
          connection.prepare = prepare;
        }
      });
      expect(answers.map((r) => r.entry)).to.deep.equal(['kept-1', 'kept-2', 'kept-3']);
    } finally {
      client._query = knexQuery;
    }
    // BEGIN and COMMIT are knex's; the three statements are not.
    expect(runnerCalls).to.equal(2);
    expect(prepares).to.equal(1);
  });

  it('on PostgreSQL, names a text once it recurs, not before', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const sql = 'select entry from ledger where entry = ? and id > ?';
    const prepared = (trx: Knex.Transaction) =>
      trx.raw('select count(*)::int as n from pg_prepared_statements where statement = ?', [sql.replace('?', '$1').replace('?', '$2')]).then((r: { rows: Array<{ n: number }> }) => r.rows[0]!.n);
    const counts = await db.transaction(async (trx) => {
      const seen: number[] = [];
      await transactionRows(trx, sql, ['first', 0]);
      seen.push(await prepared(trx));
      await transactionRows(trx, sql, ['second', 0]);
      seen.push(await prepared(trx));
      expect(await transactionRows(trx, sql, ['third', 0])).to.deep.equal([{ entry: 'third' }]);
      seen.push(await prepared(trx));
      return seen;
    });
    expect(counts).to.deep.equal([0, 1, 1]);
  });

  it('on PostgreSQL, never names a text to be planned each time (its best plan depends on its values)', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const sql = 'select entry from ledger where id > ? and entry in (?, ?)';
    const answers = await db.transaction(async (trx) => {
      const rows = [];
      for (const entry of ['first', 'second', 'third']) rows.push(...(await transactionRows<{ entry: string }>(trx, sql, [0, entry, 'none'], { planEachTime: true })));
      const prepared = await trx.raw("select count(*)::int as n from pg_prepared_statements where statement like 'select entry from ledger where id > $1%'");
      return { rows, prepared: (prepared as { rows: Array<{ n: number }> }).rows[0]!.n };
    });
    expect(answers.prepared).to.equal(0);
    expect(answers.rows.map((r) => r.entry)).to.deep.equal(['first', 'second', 'third']);
  });

  it('on PostgreSQL, never names a text whose columns are a *: a migration adding a column must not break it', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const sql = 'select l.*, count(*) over () as n from ledger l where l.entry = ?';
    const result = await db.transaction(async (trx) => {
      for (let i = 0; i < 3; i++) await transactionRows(trx, sql, ['first']);
      const prepared = await trx.raw("select count(*)::int as n from pg_prepared_statements where statement like 'select l.*%'");
      return (prepared as { rows: Array<{ n: number }> }).rows[0]!.n;
    });
    expect(result).to.equal(0);
    await db.schema.alterTable('ledger', (t) => t.string('note'));
    const rows = await db.transaction((trx) => transactionRows<Record<string, unknown>>(trx, sql, ['first']));
    expect(rows[0]).to.have.property('note');
  });

  it('on PostgreSQL, shares a pooled connection with a second copy of itself (a module loaded twice) without clashing names', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    // A runtime that loads a module both as CommonJS and as ESM holds two copies of it, each
    // naming statements on the same pooled connections (the reliability suite did).
    const load = async (n: number) => (await import(`../../src/db/transaction-statements.ts?copy=${Date.now()}-${n}`)) as typeof import('../../src/db/transaction-statements.js');
    const [first, copy] = [await load(1), await load(2)];
    expect(copy.transactionRows).to.not.equal(first.transactionRows);
    const single = knexFactory({ ...db.client.config, pool: { min: 1, max: 1 } });
    try {
      const answers = await single.transaction(async (trx) => {
        const got: unknown[] = [];
        for (let i = 0; i < 3; i++) {
          got.push(...(await first.transactionRows(trx, `select count(*)::int as a0 from ledger where id > ?`, [0])).map(Object.keys));
          got.push(...(await copy.transactionRows(trx, `select count(*)::int as b0 from ledger where id > ? and entry <> ?`, [0, 'x'])).map(Object.keys));
        }
        return got;
      });
      expect(answers).to.deep.equal([['a0'], ['b0'], ['a0'], ['b0'], ['a0'], ['b0']]);
    } finally {
      await single.destroy();
    }
  });
});
