// knex on SQLite prepares each SQL text once per connection: the same answers as knex's own
// client (rows, insert ids, changes), each with its own bindings, and a statement that other
// code prepared and switched to raw (array) rows never reaches knex.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../test/support/database.js';
import { preparedStatements } from '../../src/db/prepared-statements.js';

describe('knex on SQLite', function () {
  before(function () {
    if (testDatabaseKind !== 'sqlite') this.skip();
  });
  const knex = freshKnexForSuite(async (db) => {
    if (testDatabaseKind !== 'sqlite') return;
    await db.schema.createTable('notes', (t) => {
      t.increments('id');
      t.string('text');
    });
  });
  let db: Knex;
  beforeEach(() => (db = knex()));

  /** How many times the connection parses SQL while `work` runs. */
  async function preparesDuring(work: () => Promise<void>): Promise<number> {
    const connection = (await db.client.acquireConnection()) as { prepare(sql: string): unknown };
    await db.client.releaseConnection(connection);
    const original = connection.prepare;
    let prepares = 0;
    connection.prepare = function (this: unknown, sql: string) {
      prepares++;
      return original.call(this, sql);
    };
    try {
      await work();
    } finally {
      connection.prepare = original;
    }
    return prepares;
  }

  it('prepares a text once and answers each run with its own bindings: rows, insert ids and changes', async () => {
    const ids: number[] = [];
    const prepares = await preparesDuring(async () => {
      for (const text of ['a', 'b', 'c']) ids.push(...((await db('notes').insert({ text })) as number[]));
      for (const text of ['a', 'b', 'c']) expect(await db('notes').where({ text }).pluck('text')).to.deep.equal([text]);
      expect(await db('notes').where({ text: 'b' }).update({ text: 'B' })).to.equal(1);
    });
    expect(ids).to.deep.equal([1, 2, 3]);
    expect(prepares).to.equal(3); // the insert, the select and the update: once each
    expect(await db('notes').orderBy('id').pluck('text')).to.deep.equal(['a', 'B', 'c']);
  });

  it('keeps its statements apart from those other code prepared in raw mode', async () => {
    const sql = 'select "text" from "notes" where "id" = ?';
    expect(await preparedStatements(db).all(sql, [1])).to.deep.equal([{ text: 'a' }]);
    expect(await db.raw(sql, [1])).to.deep.equal([{ text: 'a' }]);
  });
});
