// Resident row -> FHIR R4 Patient, with meta and an identifier `type` (HL7 v2-0203) for the
// identifier systems we know. Identifier values are returned byte for byte, as held. After a
// merge (HL7 ADT^A40), link[] says which resident replaced which.
import type { ResidentRow } from '../fhir-patient.js';
import { fhirMeta } from '../fhir-meta.js';

const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';

type Identifier = { system?: string; value?: string; type?: unknown; [element: string]: unknown };

const TYPE_BY_SYSTEM: Array<[test: (system: string) => boolean, code: string, display: string]> = [
  [(s) => s === 'http://hl7.org/fhir/sid/us-ssn', 'SS', 'Social Security number'],
  [(s) => s === 'http://hl7.org/fhir/sid/us-mbi' || s === 'http://hl7.org/fhir/sid/us-medicare', 'MC', "Patient's Medicare number"],
  [(s) => s === 'http://hl7.org/fhir/sid/us-medicaid', 'MA', 'Patient Medicaid number'],
  [(s) => /\/mrn$|[:/]mrn[:/]/i.test(s), 'MR', 'Medical record number'],
];

function typed(identifier: Identifier): Identifier {
  if (identifier.type !== undefined || typeof identifier.system !== 'string') return identifier;
  const known = TYPE_BY_SYSTEM.find(([test]) => test(identifier.system!));
  return known ? { ...identifier, type: { coding: [{ system: V2_0203, code: known[1], display: known[2] }], text: known[2] } } : identifier;
}

type StoredLink = { other: string; type: 'replaced-by' | 'replaces' };

export function toR4Patient(row: ResidentRow & { version_id: number | string; last_updated: string; links?: string | null }) {
  return {
    resourceType: 'Patient' as const,
    id: row.id,
    meta: fhirMeta(row),
    identifier: (JSON.parse(row.identifiers) as Identifier[]).map(typed),
    active: Boolean(row.active),
    name: [{ use: 'official', family: row.family_name, given: JSON.parse(row.given_names) as string[] }],
    gender: row.gender,
    ...(row.birth_date ? { birthDate: row.birth_date } : {}),
    managingOrganization: { reference: `Organization/${row.facility_id}` },
    ...(row.links ? { link: (JSON.parse(row.links) as StoredLink[]).map((l) => ({ other: { reference: `Patient/${l.other}` }, type: l.type })) } : {}),
  };
}
