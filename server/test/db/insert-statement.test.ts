// An INSERT's text compiled by knex once per shape (dialect, table, columns, row count), each
// call listing its own values: always the text and bindings knex itself would compile.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileOnlyKnexes } from '../../../test/support/compile-only-knex.js';
import { insertStatement } from '../../src/db/insert-statement.js';

const dialects = compileOnlyKnexes();

describe('an insert statement', () => {
  after(async () => {
    for (const [, db] of dialects) await db.destroy();
  });

  for (const [name, db] of dialects) {
    const sameAsKnex = (table: string, rows: object[]) => {
      const knex = db(table).insert(rows).toSQL();
      expect(insertStatement(db, table, rows)).to.deep.equal({ sql: knex.sql, bindings: knex.bindings });
    };

    it(`gives knex's text and bindings, columns in knex's sorted order, first and later calls alike (${name})`, () => {
      for (let i = 0; i < 3; i++) {
        sameAsKnex('residents', [{ id: `r${i}`, family_name: 'Okafor', active: true, version_id: i, identifiers: '[]', given: null }]);
        sameAsKnex('residents', [
          { id: `r${i}`, family_name: 'Okafor', active: true },
          { id: `s${i}`, family_name: 'Adeyemi', active: false },
        ]);
      }
    });

    it(`keeps values as they are: dates, buffers, arrays and objects (${name})`, () => {
      const at = new Date('2026-11-27T12:00:00Z');
      const rows = [{ id: 'a', at, bytes: Buffer.from('x'), list: ['a', 'b'], json: { a: 1 } }];
      sameAsKnex('things', rows);
      sameAsKnex('things', rows);
    });

    it(`compiles a large insert with knex each time, the same text (${name})`, () => {
      sameAsKnex('residents', Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, family_name: 'Okafor' })));
    });

    it(`leaves to knex rows of different shapes, undefined values (DEFAULT) and raw SQL (${name})`, () => {
      sameAsKnex('residents', [{ id: 'a', family_name: 'X' }, { family_name: 'Y', id: 'b' }]);
      sameAsKnex('residents', [{ id: 'a', family_name: 'X' }, { id: 'b' }]);
      sameAsKnex('residents', [{ id: 'a', family_name: undefined }]);
      sameAsKnex('residents', [{ id: 'a', created_at: db.raw('CURRENT_TIMESTAMP') }]);
      sameAsKnex('residents', [{ id: 'a', created_at: db.raw('CURRENT_TIMESTAMP') }]);
    });
  }
});
