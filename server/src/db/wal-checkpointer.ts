// SQLite checkpoints (copying the write-ahead log back into the database file, then an
// fsync) run inside whichever commit crosses `wal_autocheckpoint` pages. better-sqlite3 is
// synchronous, so that commit holds the event loop for the whole checkpoint, and every
// request and webhook delivery in flight waits behind it: at 1,000 deliveries/s the p99 from
// enqueue to arrival was 148 ms with automatic checkpoints and 65 ms without them
// (docs/benchmarks.md). The service therefore turns them off on its own connection and
// checkpoints from a worker thread, on a connection of its own, in PASSIVE mode: it copies
// what it can without waiting for the writer or making it wait. A commit starts the log again
// from the beginning only when it finds the log copied whole, and under writes that never stop
// (a commit every millisecond under load) the thread's copy is always behind: the log grew to
// 960 MB in 40 s of a list benchmark, and every page read searched it, slower and slower. So
// once the thread finds the log holding `restartAfterFrames` pages, it tells the service's
// connection, which copies the rest itself (a passive checkpoint between two of its own
// commits: only what was committed since the thread's pass), and its next commit starts the
// log again. Before it tells, the thread syncs the database file and copies once more: the
// service's checkpoint ends with an fsync of the file, which otherwise flushed every page the
// thread had copied since the last one (25 ms on this machine's disk under ORU^R01 results, on
// the event loop every 200 ms); now it flushes its own few pages (docs/benchmarks.md, section
// 7). The thread then copies nothing until the service's connection says it has finished (or
// a second has passed): a pass of the thread at that moment made the finish busy, no restart
// followed, and on a loaded CI machine the log grew to 53 MB before one did. Not a RESTART
// checkpoint from the thread: that takes the write
// lock, and a transaction of the service that had read before it wrote got SQLITE_BUSY at
// once (SQLite does not wait for a lock a reader would deadlock on). If the thread fails, the
// service's connection checkpoints itself again, as before.
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import { sqliteDriverPath } from './sqlite-driver.js';

/** SQLite's default `wal_autocheckpoint` (pages), restored when the thread stops or fails. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const DEFAULT_INTERVAL_MS = 200;
/** 16 MB of 4 KB pages: a restart every second or two under the heaviest load measured. */
const DEFAULT_RESTART_AFTER_FRAMES = 4096;

// Plain CommonJS in an eval'd worker: nothing to bundle, and better-sqlite3 is loaded from
// the path the main thread resolved.
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const { openSync, fdatasyncSync, closeSync } = require('node:fs');
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
// Only to sync the file: a passive checkpoint that did not copy the whole log (writes came
// meanwhile) writes the database file without syncing it.
const databaseFile = openSync(workerData.file, 'r+');
// Set while the service's connection finishes the log: a pass of ours would make it busy.
let waitingSince = 0;
const FINISH_WAIT_MS = 1000;
const checkpoint = (always) => {
  if (!always && waitingSince && Date.now() - waitingSince < FINISH_WAIT_MS) return;
  waitingSince = 0;
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive && passive.log >= workerData.restartAfterFrames) {
      fdatasyncSync(databaseFile);
      // What was committed during that sync, so that the service's connection finds little left.
      db.pragma('wal_checkpoint(PASSIVE)');
      fdatasyncSync(databaseFile);
      waitingSince = Date.now();
      parentPort.postMessage({ longLog: passive.log });
    }
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.postMessage({ ready: true });
parentPort.on('message', (message) => {
  if (message === 'finished') waitingSince = 0;
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint(true);
  db.close();
  closeSync(databaseFile);
  parentPort.close();
});
`;

interface SqliteConnection {
  pragma(sql: string, options?: { simple: boolean }): unknown;
  open: boolean;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** Pages in the log after the thread's checkpoint that make the service's connection finish it. */
  restartAfterFrames?: number;
  /** Where better-sqlite3 is loaded from in the thread (tests point it elsewhere to make the thread fail). */
  modulePath?: string;
  onFailure?: (message: string) => void;
  /** Each checkpoint the service's connection made to finish the log (busy, or what it copied). */
  onFinish?: (result: CheckpointResult) => void;
}

export interface WalCheckpointer {
  /** Checkpoints once more, closes the thread's connection and hands checkpoints back to the service's connection. */
  stop(): Promise<void>;
}

/** A pragma on the service's own connection, between two of its statements or transactions. */
async function onServiceConnection(db: Knex, pragma: string): Promise<unknown> {
  const connection = (await db.client.acquireConnection()) as SqliteConnection;
  try {
    return connection.open ? connection.pragma(pragma) : undefined;
  } finally {
    db.client.releaseConnection(connection);
  }
}

async function setAutocheckpoint(db: Knex, pages: number): Promise<void> {
  await onServiceConnection(db, `wal_autocheckpoint = ${pages}`);
}

/** SQLite's answer to a checkpoint: busy 1 when another one was running, else the log's frames and how many were copied. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** The rest of the log copied by the service's own connection, between two of its commits. */
async function finishCheckpoint(db: Knex): Promise<CheckpointResult | undefined> {
  const rows = (await onServiceConnection(db, 'wal_checkpoint(PASSIVE)')) as CheckpointResult[] | undefined;
  return rows?.[0];
}

/** Moves the checkpoints of the SQLite database `file`, opened by `db`, to a worker thread. */
export async function startWalCheckpointer(db: Knex, file: string, options: WalCheckpointerOptions = {}): Promise<WalCheckpointer> {
  const worker = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS, restartAfterFrames: options.restartAfterFrames ?? DEFAULT_RESTART_AFTER_FRAMES, modulePath: options.modulePath ?? sqliteDriverPath() },
  });
  worker.unref();
  let stopping = false;
  const handBack = (message: string) => {
    if (stopping) return;
    stopping = true;
    options.onFailure?.(message);
    setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => undefined);
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let finishing = false;
  const ready = new Promise<boolean>((resolve) => {
    worker.on('message', (message: { ready?: boolean; failed?: string; longLog?: number }) => {
      if (message.ready) resolve(true);
      if (message.failed) options.onFailure?.(message.failed);
      if (message.longLog !== undefined && !finishing && !stopping) {
        finishing = true;
        finishCheckpoint(db)
          .then((result) => result && options.onFinish?.(result))
          .catch(() => undefined) // the connection closed meanwhile: the thread stops with it
          .finally(() => {
            finishing = false;
            if (!stopping) worker.postMessage('finished');
          });
      }
    });
    worker.once('error', (error) => {
      resolve(false);
      handBack(error.message);
    });
    worker.once('exit', () => {
      resolve(false);
      handBack('the checkpoint thread exited');
    });
  });
  // Automatic checkpoints stop only once the thread has its connection (and resume if it
  // failed meanwhile).
  if (await ready) {
    await setAutocheckpoint(db, 0);
    if (stopping) await setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES);
  }
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      await setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => undefined);
      worker.postMessage('stop');
      await exited;
    },
  };
}
