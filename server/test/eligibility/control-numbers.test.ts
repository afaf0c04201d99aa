// Interchange control numbers against a real database: blocks per sender id that never overlap,
// handed out in order by each process, one statement per block.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ControlNumbers, MAX_CONTROL_NUMBER, takeControlNumbers } from '../../src/eligibility/control-numbers.js';

describe('interchange control numbers', function () {
  this.timeout(30_000);
  let db: Knex;
  freshKnexForSuite(async (opened) => {
    db = opened;
    await migrateToLatest(db);
  });

  it('are taken per sender id in blocks that never overlap, and wrap after nine digits', async () => {
    expect(await takeControlNumbers(db, 'SENDER-A', 1)).to.deep.equal({ first: 1, last: 1 });
    expect(await takeControlNumbers(db, 'SENDER-A', 32)).to.deep.equal({ first: 2, last: 33 });
    expect(await takeControlNumbers(db, 'SENDER-B', 32)).to.deep.equal({ first: 1, last: 32 });
    const blocks = await Promise.all(Array.from({ length: 20 }, () => takeControlNumbers(db, 'SENDER-C', 5)));
    const numbers = blocks.flatMap(({ first, last }) => Array.from({ length: last - first + 1 }, (_, i) => first + i));
    expect(new Set(numbers).size).to.equal(100);
    // A block that would pass 999,999,999 starts again at 1; one that ends on it is taken whole.
    await db('x12_control_numbers').where({ sender_id: 'SENDER-A' }).update({ last_number: MAX_CONTROL_NUMBER - 32 });
    expect(await takeControlNumbers(db, 'SENDER-A', 32)).to.deep.equal({ first: MAX_CONTROL_NUMBER - 31, last: MAX_CONTROL_NUMBER });
    expect(await takeControlNumbers(db, 'SENDER-A', 32)).to.deep.equal({ first: 1, last: 32 });
    await db('x12_control_numbers').where({ sender_id: 'SENDER-A' }).update({ last_number: MAX_CONTROL_NUMBER });
    expect(await takeControlNumbers(db, 'SENDER-A', 1)).to.deep.equal({ first: 1, last: 1 });
  });

  it('a process hands its control numbers out in order, one statement per block, and two processes never hand out the same one', async () => {
    let statements = 0;
    const count = (query: { sql: string }) => {
      if (query.sql.includes('x12_control_numbers')) statements++;
    };
    db.on('query', count);
    try {
      const one = new ControlNumbers(db, 8);
      const other = new ControlNumbers(db, 8);
      // Asked all at once: each caller waits for the block being taken rather than take its own.
      const first = await Promise.all(Array.from({ length: 20 }, () => one.next('SENDER-D')));
      expect(first).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(statements).to.equal(3);
      const interleaved = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? one : other).next('SENDER-D')));
      const all = [...first, ...interleaved];
      expect(new Set(all).size).to.equal(50);
      // Increasing within each process.
      for (const mine of [interleaved.filter((_, i) => i % 2), interleaved.filter((_, i) => i % 2 === 0)]) expect([...mine].sort((a, b) => a - b)).to.deep.equal(mine);
      expect(await one.next('SENDER-E')).to.equal(1);
    } finally {
      db.off('query', count);
    }
  });
});
