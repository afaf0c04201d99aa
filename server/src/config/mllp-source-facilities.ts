// MLLP_SOURCE_FACILITIES: sources bound to one facility. A lab's interface that serves one
// facility often names none (no MSH-4, no PV1): a connection from a source bound to exactly
// one facility (by its HL7 code, as `ops facility update FAC --hl7-code CODE` sets it) routes
// such a message there. A source bound to two codes, or to none, still has the message refused
// naming the missing field. A message that names its facility goes by that name, as always.
import { BlockList } from 'node:net';
import { listed, sourceList } from './address-list.js';

export type SourceFacilities = (source: string) => string | undefined;

/** Entries `<address or network>=<facility HL7 code>`, as MLLP_SOURCE_FACILITIES lists them. */
export function parseSourceFacilities(entries: string[]): Array<{ source: string; facilityCode: string }> {
  return entries.map((entry) => {
    const at = entry.lastIndexOf('=');
    const source = entry.slice(0, at).trim();
    const facilityCode = entry.slice(at + 1).trim();
    if (at <= 0 || !facilityCode) throw new Error(`MLLP_SOURCE_FACILITIES: ${JSON.stringify(entry)} must be <address or network>=<facility HL7 code>`);
    sourceList([source], 'MLLP_SOURCE_FACILITIES');
    return { source, facilityCode };
  });
}

/** The facility code a source is bound to, when it is bound to exactly one. */
export function sourceFacilities(bindings: Array<{ source: string; facilityCode: string }>): SourceFacilities {
  const lists = bindings.map((b) => ({ list: sourceList([b.source], 'MLLP_SOURCE_FACILITIES') as BlockList, facilityCode: b.facilityCode }));
  return (source) => {
    const codes = new Set(lists.filter((b) => listed(b.list, source)).map((b) => b.facilityCode));
    return codes.size === 1 ? [...codes][0] : undefined;
  };
}
