// OPTIMISTIC CONCURRENCY: a change may carry ifMatch, the version its writer read. It is
// compared with the row as read inside the chunk's transaction, after tickIngestClock took the
// organization's ingest lock (ingest-clock.ts): no other ingest transaction of the
// organization can write between that read and this transaction's commit, so of two writers
// holding the same version exactly one passes. A mismatch is a `conflict` (versionConflict).
// Every UPDATE is also conditional on the version it read, so a write that somehow bypassed
// the lock fails the transaction loudly instead of being silently overwritten.
import type { Prepared } from './prepared-change.js';
import type { RecordRow } from './record-row.js';
import { rejectedBy } from './change-rejection.js';

/** ifMatch: the record must exist and still be at the version the writer read. */
export function checkVersion(item: Prepared, existing: RecordRow | undefined): void {
  const expected = item.change.ifMatch;
  if (expected === undefined) return;
  const type = item.mapping!.type;
  if (!existing) {
    rejectedBy({ code: 'conflict', versionConflict: true, diagnostics: `ifMatch version ${expected}: no ${type} matches this change, so there is no version to match (it may never have existed); read it again`, expression: [type] });
  }
  const current = Number(existing.version_id);
  if (current !== expected) {
    rejectedBy({ code: 'conflict', versionConflict: true, diagnostics: `ifMatch version ${expected}: ${type}/${existing.id} is at version ${current}; it changed since it was read. Read it again and resend the change`, expression: [type] });
  }
}
