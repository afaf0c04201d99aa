// The varying statements of R4 searches: prepared and reused on SQLite, yet never more than
// a bounded number kept, and each text always answers its own rows, evicted or not. Reads
// shared by the requests of one turn (allShared), never by a read asked after a write.
import { expect } from 'chai';
import knexFactory from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { preparedStatements } from '../../src/db/prepared-statements.js';

describe('prepared statements whose text varies (allVarying)', function () {
  this.timeout(30_000);
  const knex = freshKnexForSuite(async (db) => {
    await db.schema.createTable('numbers', (t) => t.integer('n').notNullable());
    await db('numbers').insert(Array.from({ length: 400 }, (_, n) => ({ n })));
    await preparedStatements(db).ready();
  });

  it('answers each of more distinct texts than it keeps with its own rows, and again after they are evicted', async () => {
    const statements = preparedStatements(knex());
    // 300 texts (one more placeholder each time), more than the 256 kept; then all of them again.
    const textOf = (k: number) => `select n from numbers where n in (${Array.from({ length: k }, () => '?').join(', ')}) order by n`;
    for (const round of [1, 2]) {
      for (let k = 1; k <= 300; k++) {
        const params = Array.from({ length: k }, (_, i) => i + round);
        const rows = await statements.allVarying(textOf(k), params);
        expect(rows.map((r) => Number(r.n)), `round ${round}, ${k} values`).to.deep.equal(params);
      }
    }
  });

  it('gives rows as objects named by the statement\'s columns', async () => {
    const rows = await preparedStatements(knex()).allVarying('select n, n * 2 as twice from numbers where n = ?', [21]);
    expect(rows).to.deep.equal([{ n: 21, twice: 42 }]);
  });

  it('gives a leading column once, apart from the rows, and none when no row matches (a search\'s total beside its page)', async () => {
    const statements = preparedStatements(knex());
    const sql = 'select (select count(*) from numbers where n < ?) as total, n from numbers where n < ? order by n limit 3';
    const page = await statements.allVaryingWithLeading(sql, [10, 10], 1);
    expect(Number(page.leading?.total)).to.equal(10);
    expect(page.rows).to.deep.equal([{ n: 0 }, { n: 1 }, { n: 2 }]);
    const empty = await statements.allVaryingWithLeading(sql, [0, 0], 1);
    expect(empty).to.deep.equal({ leading: undefined, rows: [] });
  });

  it('answers the columns a migration added to a table read with t.*, after the statement was prepared (a rolling upgrade)', async () => {
    // One pooled connection: the statement prepared before the migration is the one run after it.
    const db = knexFactory({ ...knex().client.config, pool: { min: 1, max: 1 } });
    try {
      await db.schema.createTable('widened', (t) => t.integer('n').notNullable());
      await db('widened').insert([{ n: 1 }, { n: 2 }]);
      const statements = preparedStatements(db);
      await statements.ready();
      const sql = 'select widened.* from widened where n > ? order by n';
      for (let i = 0; i < 3; i++) expect(await statements.allVarying(sql, [0])).to.deep.equal([{ n: 1 }, { n: 2 }]);
      await db.schema.alterTable('widened', (t) => t.string('note').nullable());
      await db('widened').update({ note: 'kept' });
      expect(await statements.allVarying(sql, [0])).to.deep.equal([
        { n: 1, note: 'kept' },
        { n: 2, note: 'kept' },
      ]);
    } finally {
      await db.destroy();
    }
  });
});

describe('reads shared within one turn of the event loop (allShared)', function () {
  this.timeout(30_000);
  const knex = freshKnexForSuite(async (db) => {
    await db.schema.createTable('numbers', (t) => t.integer('n').notNullable());
    await db('numbers').insert(Array.from({ length: 10 }, (_, n) => ({ n })));
    await preparedStatements(db).ready();
  });
  /** Which execution of the statement answered (each draws its own random number), and what it counted. */
  const SQL = 'select random() as execution, (select count(*) from numbers where n >= ?) as counted';

  it('answers the reads of one turn with the same text and parameters from one statement, others from their own', async () => {
    const statements = preparedStatements(knex());
    const same = Array.from({ length: 5 }, () => statements.allShared(SQL, ['0']));
    const other = statements.allShared(SQL, ['5']);
    const rows = await Promise.all(same);
    expect(new Set(rows.map((r) => Number(r[0]!.execution))).size).to.equal(1);
    expect(rows.map((r) => Number(r[0]!.counted))).to.deep.equal([10, 10, 10, 10, 10]);
    const otherRow = (await other)[0]!;
    expect(Number(otherRow.counted)).to.equal(5);
    expect(Number(otherRow.execution)).to.not.equal(Number(rows[0]![0]!.execution));
  });

  it('gives a read asked once the shared statement is sent a statement of its own, which sees writes committed before it was asked', async () => {
    const db = knex();
    const statements = preparedStatements(db);
    const first = statements.allShared(SQL, ['0']);
    // The next turn: the first read's statement is on its way.
    await new Promise((resolve) => setImmediate(resolve));
    await db('numbers').insert({ n: 100 });
    try {
      const later = (await statements.allShared(SQL, ['0']))[0]!;
      expect(Number(later.counted)).to.equal(11);
      expect(Number(later.execution)).to.not.equal(Number((await first)[0]!.execution));
      expect(Number((await first)[0]!.counted)).to.be.oneOf([10, 11]);
    } finally {
      await db('numbers').where({ n: 100 }).del();
    }
  });
});
