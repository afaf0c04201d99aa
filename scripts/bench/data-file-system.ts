// The file system under PostgreSQL's data directory, read from /proc/self/mounts when the
// server runs on this machine. A partition's drop removes its files, and how long that takes
// is the file system's work: on ext4 mounted with online `discard` every freed extent is sent
// to the device as it is freed, and truncating a 1 GB file took 600-770 ms on this machine
// kind against 84-88 ms without the option (2026-11-29), so the scale benchmark says which.
import { readFileSync, realpathSync } from 'node:fs';
import type pg from 'pg';

export interface DataFileSystem {
  directory: string;
  mountPoint: string;
  type: string;
  options: string;
  /** Mounted with online discard: every freed extent is sent to the device as it is freed. */
  onlineDiscard: boolean;
}

/** `\040`-style escapes of /proc/self/mounts (spaces, tabs, newlines, backslashes in paths). */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The mount holding `path` (the longest mount point that contains it), from a mounts table's text. */
export function mountOf(mounts: string, path: string): Omit<DataFileSystem, 'directory'> | undefined {
  let best: Omit<DataFileSystem, 'directory'> | undefined;
  for (const line of mounts.split('\n')) {
    const [, point, type, options] = line.split(' ');
    if (!point || !type || !options) continue;
    const mountPoint = unescapeMountPath(point);
    const inside = mountPoint === '/' || path === mountPoint || path.startsWith(`${mountPoint}/`);
    if (!inside || (best && best.mountPoint.length > mountPoint.length)) continue;
    best = { mountPoint, type, options, onlineDiscard: options.split(',').includes('discard') };
  }
  return best;
}

/** PostgreSQL's data directory; undefined for a role that may not read it (not a superuser). */
export async function dataDirectory(admin: pg.Client): Promise<string | undefined> {
  try {
    return (await admin.query<{ d: string }>('SELECT current_setting($1) AS d', ['data_directory'])).rows[0]!.d;
  } catch {
    return undefined;
  }
}

/** Undefined when the server is elsewhere (its data directory is not on this machine) or not readable. */
export async function dataFileSystem(admin: pg.Client): Promise<DataFileSystem | undefined> {
  const directory = await dataDirectory(admin);
  if (directory === undefined) return undefined;
  try {
    const mount = mountOf(readFileSync('/proc/self/mounts', 'utf8'), realpathSync(directory));
    return mount && { directory, ...mount };
  } catch {
    return undefined;
  }
}
