// Observation row -> FHIR R4 Observation: code as a CodeableConcept; `category` the one the
// source gave (a lab result's `laboratory`), and vital-signs for the vital-sign LOINC codes;
// exactly one value: component[] for blood pressure (no value on the panel itself, as the R4
// vital-signs profile has it), else valueQuantity (with its comparator; a unit that is not
// UCUM as `unit` alone), valueRange, valueRatio, valueCodeableConcept, else valueString; a
// lab result's referenceRange, interpretation and issued time; the identifiers it was sent with.
import type { ObservationRow } from '../fhir-observation.js';
import { fhirMeta } from '../fhir-meta.js';
import { identifierElement, type Identifier } from './r4-identifiers.js';
import { LOINC, OBSERVATION_CATEGORY, VITAL_SIGN_CODES } from './observation-codes.js';

const VITAL_SIGNS = new Set(VITAL_SIGN_CODES);
const VITAL_SIGNS_CATEGORY = {
  coding: [{ system: OBSERVATION_CATEGORY, code: 'vital-signs', display: 'Vital Signs' }],
  text: 'Vital Signs',
};

type Quantity = { value: number; comparator?: string; unit?: string; system?: string; code?: string };
type StoredComponent = { code: { system: string; code: string; display: string }; valueQuantity: Quantity };

export type R4ObservationRow = ObservationRow & {
  version_id: number | string;
  last_updated: string;
  value_concept?: string | null;
  value_range?: string | null;
  value_ratio?: string | null;
  category_system?: string | null;
  category_code?: string | null;
  category_display?: string | null;
  reference_range?: string | null;
  interpretation?: string | null;
  issued_at?: string | null;
  /** Set by the type's `related` (r4-types.ts): the identifiers it was sent with. */
  identifiers?: Identifier[];
};

const parsed = <T>(json: string | null | undefined): T | undefined => (json ? (JSON.parse(json) as T) : undefined);

function categories(row: R4ObservationRow) {
  const list: Array<{ coding: Array<{ system: string; code: string; display: string }>; text: string }> = [];
  if (row.category_system && row.category_code) {
    const display = row.category_display ?? row.category_code;
    list.push({ coding: [{ system: row.category_system, code: row.category_code, display }], text: display });
  }
  const vital = row.code_system === LOINC && VITAL_SIGNS.has(row.code);
  if (vital && !(row.category_system === OBSERVATION_CATEGORY && row.category_code === 'vital-signs')) list.push(VITAL_SIGNS_CATEGORY);
  return list.length ? { category: list } : {};
}

function valueOf(row: R4ObservationRow) {
  const components = parsed<StoredComponent[]>(row.components);
  if (components) return { component: components.map((c) => ({ code: { coding: [c.code], text: c.code.display }, valueQuantity: c.valueQuantity })) };
  if (row.value_quantity) return { valueQuantity: parsed<Quantity>(row.value_quantity)! };
  if (row.value_range) return { valueRange: parsed<Record<string, Quantity>>(row.value_range)! };
  if (row.value_ratio) return { valueRatio: parsed<Record<string, Quantity>>(row.value_ratio)! };
  if (row.value_concept) return { valueCodeableConcept: parsed<Record<string, unknown>>(row.value_concept)! };
  return { valueString: row.value_string };
}

export function toR4Observation(row: R4ObservationRow) {
  const ranges = parsed<Array<Record<string, unknown>>>(row.reference_range);
  const flags = parsed<Array<Record<string, unknown>>>(row.interpretation);
  return {
    resourceType: 'Observation' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    ...categories(row),
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...(row.issued_at ? { issued: row.issued_at } : {}),
    ...valueOf(row),
    ...(flags ? { interpretation: flags } : {}),
    ...(ranges ? { referenceRange: ranges } : {}),
  };
}
