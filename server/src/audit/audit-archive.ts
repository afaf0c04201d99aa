// `ops audit archive --before DATE FILE`: the audit rows older than DATE (on PostgreSQL, the
// monthly partitions retention is about to drop, and the part of the straddling month before
// DATE) written to FILE as gzip-compressed NDJSON, one self-contained row a line (its long
// texts read back from audit_texts, its disclosures decoded), for facilities that must keep
// the accounting of disclosures offline longer than AUDIT_RETENTION_DAYS. Patient data: FILE
// is created 0600 and never overwritten. FILE.sha256 holds the SHA-256 of FILE in the format
// `sha256sum -c` checks.
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Knex } from 'knex';
import { PRIVATE_MODE, makePrivate } from '../db/private-files.js';
import { isPostgres, rawRows } from '../db/database.js';
import { partitionsBefore } from '../db/history-partitions.js';
import { RESOLVED_TEXTS, TEXTS_JOIN } from './audit-texts.js';
import { decodeDisclosures } from '../db/disclosure-encoding.js';

const PAGE = 5_000;

export interface ArchiveReport {
  file: string;
  checksum_file: string;
  before: string;
  rows: number;
  bytes: number;
  sha256: string;
  /** PostgreSQL: the partitions wholly before `before`, all of whose rows are in FILE. */
  partitions: string[];
}

interface Row {
  seq: number | string;
  at: string;
  request_id: string;
  client_id: string | null;
  org_id: string | null;
  facility_id: string | null;
  operation: string;
  status: number;
  result_count: number;
  purpose: string | null;
  resource_ids: string | null;
  disclosures: string | null;
}

export async function archiveAuditBefore(db: Knex, before: string, file: string): Promise<ArchiveReport> {
  const partitions = isPostgres(db) ? (await partitionsBefore(db, 'audit_events', before)).map((p) => p.name) : [];
  // 'wx': an archive is never written over; created 0600 whatever the umask.
  const out = createWriteStream(file, { flags: 'wx', mode: PRIVATE_MODE });
  await once(out, 'open');
  makePrivate(file);
  const hash = createHash('sha256');
  let bytes = 0;
  const gzip = createGzip();
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  gzip.pipe(out);
  let rows = 0;
  let after = 0;
  try {
    // Keyset pages by seq; `at < ?` keeps PostgreSQL to the partitions before the date.
    for (;;) {
      const page = rawRows<Row>(
        await db.raw(
          `SELECT a.seq, a.at, a.request_id, a.client_id, a.org_id, a.facility_id, a.operation, a.status, a.result_count, a.purpose, ${RESOLVED_TEXTS}
           FROM audit_events a ${TEXTS_JOIN} WHERE a.at < ? AND a.seq > ? ORDER BY a.seq LIMIT ${PAGE}`,
          [before, after],
        ),
      );
      if (page.length === 0) break;
      let text = '';
      for (const row of page) {
        const resourceIds = row.resource_ids ? (JSON.parse(row.resource_ids) as string[]) : null;
        text +=
          JSON.stringify({
            seq: Number(row.seq),
            at: row.at,
            request_id: row.request_id,
            client_id: row.client_id,
            org_id: row.org_id,
            facility_id: row.facility_id,
            operation: row.operation,
            status: Number(row.status),
            result_count: Number(row.result_count),
            purpose: row.purpose,
            resource_ids: resourceIds,
            disclosures: row.disclosures ? decodeDisclosures(row.disclosures, resourceIds) : null,
          }) + '\n';
      }
      rows += page.length;
      after = Number(page[page.length - 1]!.seq);
      if (!gzip.write(text)) await once(gzip, 'drain');
    }
    gzip.end();
    await once(out, 'finish');
  } catch (error) {
    gzip.destroy();
    out.destroy();
    // No half archive left to be mistaken for a whole one.
    rmSync(file, { force: true });
    throw error;
  }
  const sha256 = hash.digest('hex');
  const checksumFile = `${file}.sha256`;
  writeFileSync(checksumFile, `${sha256}  ${basename(file)}\n`, { flag: 'wx', mode: PRIVATE_MODE });
  return { file, checksum_file: checksumFile, before, rows, bytes, sha256, partitions };
}
