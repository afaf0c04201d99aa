// Where an export's NDJSON files live: BULK_EXPORT_DIR/<job id>/<Type>.ndjson, the folder 0700
// and each file 0600 (patient data at rest, readable by the service's user only).
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
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
 * The file of a type, open for appending after exactly `bytes` bytes: a page written by an
 * instance that died before recording it is cut off, so a resumed job repeats no line.
 */
export async function openForAppend(dir: string, jobId: string, type: string, bytes: number): Promise<FileHandle> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await mkdir(jobDir(dir, jobId), { recursive: true, mode: 0o700 });
  const handle = await open(filePath(dir, jobId, fileName(type)), 'a', 0o600);
  await handle.truncate(bytes);
  return handle;
}

export async function removeJobFiles(dir: string | undefined, jobId: string): Promise<void> {
  if (dir) await rm(jobDir(dir, jobId), { recursive: true, force: true });
}
