// An online backup of the embedded SQLite database with SQLite's backup API (through
// better-sqlite3): consistent while the service keeps reading and writing, since each step
// copies pages under a read lock and restarts if another connection changed the source.
// The copy is written beside its destination, checked (integrity_check), then renamed into
// place, so FILE is either a whole, verified backup or absent. PostgreSQL has its own tools
// (pg_dump, base backups with WAL archiving): see docs/operators/retention-and-backup.md.
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { sqliteDriver } from './sqlite-driver.js';
import { developmentKeyPath } from '../config/development-key-path.js';
import { createPrivateFile, makePrivate } from './private-files.js';

export interface BackupReport {
  database: string;
  file: string;
  bytes: number;
  pages: number;
  integrity: 'ok';
  duration_ms: number;
  /** The development webhook key copied beside the backup (without it, signing secrets are lost), or null. */
  key_file: string | null;
}

/** Pages per step: large steps finish before a busy writer can force many restarts. */
const PAGES_PER_STEP = 4096;

export async function backupSqlite(source: string, destination: string, options: { copyDevelopmentKey: boolean }): Promise<BackupReport> {
  const started = performance.now();
  const file = resolve(destination);
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (existsSync(file)) throw new Error(`${file} exists: choose another name (a backup never overwrites a file)`);
  if (!existsSync(dirname(file))) throw new Error(`the folder ${dirname(file)} does not exist`);
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  const Database = sqliteDriver();
  const db = new Database(source, { fileMustExist: true });
  let pages = 0;
  try {
    db.pragma('busy_timeout = 5000');
    // The copy holds patient data: created 0600 before SQLite writes into it.
    createPrivateFile(partial);
    const result = await db.backup(partial, { progress: () => PAGES_PER_STEP });
    pages = result.totalPages;
    const copy = new Database(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`the backup failed its integrity check: ${String(check)}`);
      // One self-contained file: no -wal beside it.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  let keyFile: string | null = null;
  const key = developmentKeyPath(source);
  if (options.copyDevelopmentKey && existsSync(key)) {
    keyFile = developmentKeyPath(file);
    copyFileSync(key, keyFile);
    makePrivate(keyFile);
  }
  return { database: source, file, bytes: statSync(file).size, pages, integrity: 'ok', duration_ms: Math.round(performance.now() - started), key_file: keyFile };
}
