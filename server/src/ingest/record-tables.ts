// The record tables as ingestion writes them: which keep a created_at, which belong to a
// resident (and move with it on a transfer or a merge), which a policy decides the visibility of.
import type { RecordType } from './change-set.js';
import { MAPPINGS } from './mapping/index.js';

export const TABLES_WITH_CREATED_AT = new Set(['residents', 'coverage', 'conditions', 'medication_requests', 'service_requests', 'consents', 'eligibility_responses', 'diagnostic_reports']);
/** The tables whose rows belong to a resident and move with it on a transfer. */
export const RESIDENT_TABLES = ['coverage', 'observations', 'allergies', 'conditions', 'medication_requests', 'service_requests', 'consents', 'eligibility_responses', 'diagnostic_reports'];
/** The resident's records a partner may read, whose visibility a consent or a Patient label decides. */
export const RECORD_TABLES = RESIDENT_TABLES.filter((table) => table !== 'consents');
/** The record type each table holds. */
export const TABLE_TYPES: Record<string, RecordType> = Object.fromEntries(Object.values(MAPPINGS).map((m) => [m.table, m.type]));
