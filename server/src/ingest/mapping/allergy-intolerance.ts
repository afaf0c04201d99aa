// FHIR R4 AllergyIntolerance -> allergies row: the first coding of the allergen, the
// clinical status as a plain code (R4's CodeableConcept, or a plain code, is accepted), the
// first category, the criticality, and the reactions (manifestations and severity, JSON).
import { bounded, firstCoding, issue, mapped, object, oneOf, storedConcept, type ResourceMapping } from './resource-mapping.js';

const CLINICAL_STATUSES = ['active', 'inactive', 'resolved'] as const;
/** R4 required bindings: allergy-intolerance-category, -criticality, reaction-event-severity. */
const CATEGORIES = ['food', 'medication', 'environment', 'biologic'] as const;
const CRITICALITIES = ['low', 'high', 'unable-to-assess'] as const;
const SEVERITIES = ['mild', 'moderate', 'severe'] as const;

function reactions(value: unknown): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', 'AllergyIntolerance.reaction must be an array', 'AllergyIntolerance.reaction');
  const stored = value.map((entry, index) => {
    const where = `AllergyIntolerance.reaction[${index}]`;
    const reaction = object(entry);
    const manifestation = reaction?.manifestation;
    if (!Array.isArray(manifestation) || manifestation.length === 0) issue('required', `${where}.manifestation is required`, `${where}.manifestation`);
    return {
      manifestation: manifestation.map((concept, i) => storedConcept(concept, `${where}.manifestation[${i}]`)),
      ...(reaction!.severity !== undefined ? { severity: oneOf(reaction!.severity, SEVERITIES, `${where}.severity`) } : {}),
    };
  });
  return stored.length ? bounded(JSON.stringify(stored), 4000, 'AllergyIntolerance.reaction') : null;
}

export function statusCode(value: unknown): unknown {
  if (typeof value === 'string') return value;
  const codings = object(value)?.coding;
  return Array.isArray(codings) ? object(codings[0])?.code : undefined;
}

export const allergyIntoleranceMapping: ResourceMapping = {
  type: 'AllergyIntolerance',
  table: 'allergies',
  residentElement: 'patient',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'AllergyIntolerance.code');
      return {
        code_system: bounded(code.code_system, 200, 'AllergyIntolerance.code.coding[0].system'),
        code: bounded(code.code, 64, 'AllergyIntolerance.code.coding[0].code'),
        display: bounded(code.display, 200, 'AllergyIntolerance.code.coding[0].display'),
        // R4 requires clinicalStatus on a live allergy; absent, it is taken as active.
        clinical_status: resource.clinicalStatus === undefined ? 'active' : oneOf(statusCode(resource.clinicalStatus), CLINICAL_STATUSES, 'AllergyIntolerance.clinicalStatus'),
        category: Array.isArray(resource.category) && resource.category.length > 0 ? oneOf(resource.category[0], CATEGORIES, 'AllergyIntolerance.category[0]') : null,
        criticality: resource.criticality === undefined ? null : oneOf(resource.criticality, CRITICALITIES, 'AllergyIntolerance.criticality'),
        reactions: reactions(resource.reaction),
      };
    }),
  events: () => [],
};
