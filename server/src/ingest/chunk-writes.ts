// What a chunk's changes come to, collected in memory while they are applied and written in
// one go at the end (write-chunk.ts): nothing of a rejected change is among them.
import type { BusinessIdentifier, RecordType } from './change-set.js';
import type { QueuedEvent } from '../webhooks/event-outbox.js';
import type { QueuedCheck } from '../eligibility/check-queue.js';
import type { RecordRow } from './record-row.js';

export interface ChunkWrites {
  inserts: Map<string, RecordRow[]>;
  /** `from`: the version the row had when read, which the UPDATE is conditional on (none for a row this chunk inserts). */
  updates: Array<{ table: string; id: string; from?: number; set: Record<string, unknown> }>;
  moves: Array<{ residentId: string; facilityId: string }>;
  /** Merges: every record of `from` moves to the resident `to` (in `facilityId`). */
  merges: Array<{ from: string; to: string; facilityId: string }>;
  reindex: Array<{ type: RecordType; id: string; identifiers: BusinessIdentifier[] }>;
  audit: Array<{ type: RecordType; id: string; outcome: 'created' | 'updated'; versionId: number; facilityId: string }>;
  events: QueuedEvent[];
  /** Residents whose records' visibility changed: `withResident` also touches the Patient row. */
  touches: Map<string, { withResident: boolean }>;
  /** Coverages whose eligibility check is due now. */
  checks: QueuedCheck[];
}

export function noWrites(): ChunkWrites {
  return { inserts: new Map(), updates: [], moves: [], merges: [], reindex: [], audit: [], events: [], touches: new Map(), checks: [] };
}
