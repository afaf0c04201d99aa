// The indexes an upgrade adds to tables that may hold years of rows (PostgreSQL), built in
// the background by the service's partition keeper where the migration left them
// (db/online-index.ts). `ops partitions` lists those not yet built.
import { twinName } from './history-table-move.js';
import { DISCLOSURE_TEXT_INDEX, DISCLOSURE_TEXT_INDEX_BODY } from './disclosure-text-key.js';
import type { Knex } from 'knex';
import { isIndexPending, type OnlineIndex } from './online-index.js';

/** A partition's own index of the text key (migration 050). */
const TEXT_KEY_SUFFIX = '_disclosure_text';

export const ONLINE_INDEXES: readonly OnlineIndex[] = [
  // Migration 050: the audit rows by their disclosures text's key.
  { table: 'audit_events', name: DISCLOSURE_TEXT_INDEX, body: DISCLOSURE_TEXT_INDEX_BODY, childSuffix: TEXT_KEY_SUFFIX },
  // The same on a partitioned twin still being filled after an upgrade (migration 039): its
  // indexes named `<index>_twin` take their names at the swap.
  { table: twinName('audit_events'), name: `${DISCLOSURE_TEXT_INDEX}_twin`, body: DISCLOSURE_TEXT_INDEX_BODY, childSuffix: TEXT_KEY_SUFFIX },
];

/** The indexes of ONLINE_INDEXES not yet built on every partition. */
export async function pendingOnlineIndexes(db: Knex): Promise<OnlineIndex[]> {
  const pending: OnlineIndex[] = [];
  for (const index of ONLINE_INDEXES) if (await isIndexPending(db, index)) pending.push(index);
  return pending;
}
