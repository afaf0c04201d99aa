// SQLite keeps a statement's undo pages (its statement journal) in memory: record pages never
// go to a temporary file outside the data directory, and an HL7 result no longer costs its
// writes (an ORU^R01 spilled one at every message).
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/db/database.js';

/** The temporary files SQLite holds open in this process (named etilqs_*, unlinked at once). */
function openTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('etilqs_'));
}

describe('SQLite temporary files', function () {
  let dir: string;
  let db: Knex;

  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ofctx-temp-files-'));
    db = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    await db.raw('CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT UNIQUE, v TEXT)');
    await db('t').insert(Array.from({ length: 200 }, (_, i) => ({ k: `k${i}`, v: 'x'.repeat(1000) })));
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the journal of a statement that changes many pages in memory, not in a temporary file', async () => {
    let during: string[] = [];
    await db.transaction(async (trx) => {
      await trx('t').update({ v: 'y'.repeat(1000) });
      // It may break the unique key midway, so SQLite journals every page it changes (about
      // 50 of them: more than the 64 KiB it keeps in memory by default).
      await trx('t').update({ k: trx.raw("k || 'b'"), v: 'z'.repeat(1000) });
      during = openTemporaryFiles();
    });
    expect(during).to.deep.equal([]);
    expect(Number((await db('t').where({ k: 'k7b' }).count({ n: '*' }).first())!.n)).to.equal(1);
  });
});
