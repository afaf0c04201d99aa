// Files that hold patient data or keys are created readable by their owner only (0600),
// whatever the process umask: the SQLite database (SQLite gives its -wal and -shm files the
// database file's mode), the development webhook key and every `ops backup` output. Files
// that already exist keep their mode; the service warns at start-up when they are readable
// by others.
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';

export const PRIVATE_MODE = 0o600;

/** Creates `path` empty with mode 0600 if it does not exist (an existing file is left alone). */
export function createPrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
  // The umask may have taken bits away (or a filesystem added some): set exactly 0600.
  chmodSync(path, PRIVATE_MODE);
}

/** Sets exactly 0600 on a file this process just wrote. */
export function makePrivate(path: string): void {
  chmodSync(path, PRIVATE_MODE);
}

/** Which of `paths` exist and are readable or writable by group or others. */
export function filesOpenToOthers(paths: readonly string[]): string[] {
  return paths.filter((path) => existsSync(path) && (statSync(path).mode & 0o077) !== 0);
}

/** The SQLite database file and the two files SQLite keeps beside it in WAL mode. */
export function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}
