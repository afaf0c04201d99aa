// The service's SQLite connection keeps up to 64 MB of pages (SQLite's default is 2 MB): an
// ORU^R01 writes some 130 pages over 40 indexes, which pushed the next message's index pages
// out of a 2 MB cache, and each came back with a read from the file.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/db/database.js';

/** Bytes this process has read with read(2) and pread(2) so far, from the kernel's page cache or the disk. */
function bytesReadByProcess(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

describe('the SQLite page cache', function () {
  let dir: string;
  let db: Knex;

  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ofctx-page-cache-'));
    db = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    await db.raw('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    // About 16 MB of rows: eight times SQLite's default cache, a quarter of the service's.
    for (let batch = 0; batch < 40; batch++) await db('t').insert(Array.from({ length: 100 }, () => ({ v: 'x'.repeat(4000) })));
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads 16 MB of pages from the file once, then from memory', async () => {
    await db.raw('SELECT sum(length(v)) AS n FROM t');
    const before = bytesReadByProcess();
    await db.raw('SELECT sum(length(v)) AS n FROM t');
    // With SQLite's 2 MB cache the second scan read the table again (about 16 MB).
    expect(bytesReadByProcess() - before).to.be.lessThan(1024 * 1024);
  });
});
