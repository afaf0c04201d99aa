// MRG -> the prior identifier of a merge (ADT^A40): MRG-1 (prior patient identifier list),
// its medical record number (type MR) else its first, read like PID-3.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import type { Hl7Reading } from '../hl7-reading.js';
import { cxIdentifiers } from './pid-segment.js';

export function priorIdentifierOfMrg(mrg: Hl7Segment, reading: Hl7Reading): BusinessIdentifier {
  return cxIdentifiers(mrg, 1, reading).match;
}
