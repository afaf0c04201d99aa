// Where an export's NDJSON files live: BULK_EXPORT_DIR/<job id>/<Type>.ndjson, the folder 0700
// and each file 0600 (patient data at rest, readable by the service's user only).
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export function jobDir(dir: string, jobId: string): string {
  return join(dir, jobId);
}

export function fileName(type: string): string {
  return `${type}.ndjson`;
}

export function filePath(dir: string, jobId: string, file: string): string {
  return join(jobDir(dir, jobId), file);
}

/**
 * A type's file while it is written: one working file per claim of the job, named for it
 * (hidden, never listed in a manifest), so an instance that lost its lease while it stalled
 * (a pause longer than BULK_EXPORT_LEASE_MS) and then wakes up writes or truncates only its
 * own file, never the one of the instance that took the job over. Resuming (`from` names the
 * previous claim's working file and `bytes` how much of it is recorded) starts from a copy of
 * exactly the recorded bytes: a page written but not recorded is cut off, so no line repeats.
 * Undefined when the previous working file is gone (not expected: it is renamed into place
 * only once the type is recorded as written): the type is then written again from its start.
 */
export async function openWorkingFile(dir: string, jobId: string, type: string, from?: { file: string; bytes: number }): Promise<{ handle: FileHandle; file: string } | undefined> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await mkdir(jobDir(dir, jobId), { recursive: true, mode: 0o700 });
  const file = `.${type}.${randomBytes(6).toString('hex')}.part`;
  const path = filePath(dir, jobId, file);
  if (from && from.bytes > 0) {
    try {
      await copyFile(filePath(dir, jobId, from.file), path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
  const handle = await open(path, 'a', 0o600);
  await handle.truncate(from?.bytes ?? 0);
  return { handle, file };
}

/**
 * Puts a type's finished working file in place under the name the manifest lists (atomic).
 * Already gone: an owner killed after renaming it, before recording the next type, did it.
 */
export async function publishWorkingFile(dir: string, jobId: string, type: string, file: string): Promise<void> {
  try {
    await rename(filePath(dir, jobId, file), filePath(dir, jobId, fileName(type)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export async function removeJobFiles(dir: string | undefined, jobId: string): Promise<void> {
  if (dir) await rm(jobDir(dir, jobId), { recursive: true, force: true });
}
