// SQLite checkpoints move off the event loop: while the checkpoint thread runs, the
// service's connection never checkpoints on commit, yet what it commits reaches the
// database file; when the thread stops or fails, the connection checkpoints itself again.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../../src/db/sqlite-driver.js';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/db/database.js';
import { startWalCheckpointer, type CheckpointResult, type WalCheckpointer } from '../../src/db/wal-checkpointer.js';

async function autocheckpointOf(db: Knex): Promise<number> {
  const rows = (await db.raw('PRAGMA wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>;
  return rows[0]!.wal_autocheckpoint;
}

/** Rows of `t` in the database file alone: a copy of it without its write-ahead log. */
function rowsInDatabaseFile(file: string): number {
  const copy = `${file}.alone-${Math.random().toString(36).slice(2)}`;
  copyFileSync(file, copy);
  const reader = new (sqliteDriver())(copy);
  try {
    return (reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  } catch {
    return 0; // the table itself is not in the file yet
  } finally {
    reader.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  }
}

async function eventually(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the SQLite checkpoint thread', () => {
  let dir: string;
  let file: string;
  let db: Knex;
  let checkpointer: WalCheckpointer | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ofctx-checkpoint-'));
    file = join(dir, 'ofctx.db');
    db = openDatabase(`sqlite:${file}`);
    await db.raw('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  });
  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = undefined;
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns checkpoints on commit off, and copies what is committed into the database file', async () => {
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
    expect(await autocheckpointOf(db)).to.equal(0);
    // More pages than an automatic checkpoint would ever let the log hold.
    await db.transaction(async (trx) => {
      for (let i = 0; i < 3000; i++) await trx('t').insert({ v: 'x'.repeat(600) });
    });
    await eventually('the rows in the database file', () => rowsInDatabaseFile(file) === 3000);
  });

  it('hands checkpoints back to the connection when it stops', async () => {
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
    await checkpointer.stop();
    checkpointer = undefined;
    expect(await autocheckpointOf(db)).to.equal(1000);
  });

  it('hands checkpoints back to the connection, and says so, when the thread fails', async () => {
    const failures: string[] = [];
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20, modulePath: join(dir, 'no-such-module.js'), onFailure: (message) => failures.push(message) });
    await eventually('the failure reported', () => failures.length > 0);
    expect(await autocheckpointOf(db)).to.equal(1000);
  });

  it('starts the log again under writes that never stop, so it stays small', async function () {
    this.timeout(20_000);
    // A commit every turn of the event loop, as under load: a passive checkpoint never finds
    // the log wholly copied when a commit starts, and without a restart the log grew without
    // end (960 MB in 40 s of a list benchmark).
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 10, restartAfterFrames: 256 });
    const walBytes = () => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    };
    // 24 MB committed, however long it takes on this machine (a fixed time wrote too little
    // on a loaded one to show anything).
    let largest = 0;
    let written = 0;
    while (written < 24 * 1024 * 1024) {
      await db('t').insert(Array.from({ length: 8 }, () => ({ v: 'x'.repeat(1000) })));
      written += 8 * 1000;
      largest = Math.max(largest, walBytes());
      await new Promise((resolve) => setImmediate(resolve));
    }
    // 256 pages of 4 KB before a restart, plus what is committed between two checkpoints
    // (a few MB here); without restarts the log held every commit (443 MB on this test).
    expect(largest).to.be.lessThan(32 * 1024 * 1024);
  });

  it('finishes the log on the service connection while the thread waits, so every finish copies it whole', async function () {
    this.timeout(20_000);
    // The thread checkpointed again while the service's connection finished the log: that
    // finish was busy, no restart followed, and a loaded CI machine saw the log reach 53 MB.
    const finishes: CheckpointResult[] = [];
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 1, restartAfterFrames: 64, onFinish: (result) => finishes.push(result) });
    let written = 0;
    while (written < 8 * 1024 * 1024 || finishes.length < 10) {
      await db('t').insert(Array.from({ length: 8 }, () => ({ v: 'x'.repeat(1000) })));
      written += 8 * 1000;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(finishes.filter((finish) => finish.busy !== 0 || finish.checkpointed !== finish.log)).to.deep.equal([]);
  });

  it('never refuses a transaction that reads before it writes while the log is started again', async function () {
    this.timeout(20_000);
    // A RESTART checkpoint from the thread took the write lock, and SQLite answered such a
    // transaction's first write with SQLITE_BUSY at once (40 refused of 40 here).
    checkpointer = await startWalCheckpointer(db, file, { intervalMs: 5, restartAfterFrames: 64 });
    const refused: string[] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 20; i++) await db('t').insert(Array.from({ length: 8 }, () => ({ v: 'x'.repeat(1000) })));
      await db
        .transaction(async (trx) => {
          await trx('t').count({ n: '*' });
          await new Promise((resolve) => setTimeout(resolve, 15));
          await trx('t').insert({ v: 'y' });
        })
        .catch((error: Error & { code?: string }) => refused.push(error.code ?? error.message));
    }
    expect(refused).to.deep.equal([]);
  });

  it('without it, a connection with checkpoints off leaves committed rows in the log only', async () => {
    // The control for the first test: the rows reach the file through the thread, not otherwise.
    await db.raw('PRAGMA wal_autocheckpoint = 0');
    await db.transaction(async (trx) => {
      for (let i = 0; i < 3000; i++) await trx('t').insert({ v: 'x'.repeat(600) });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rowsInDatabaseFile(file)).to.equal(0);
  });
});
