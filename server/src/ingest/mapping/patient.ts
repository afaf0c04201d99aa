// FHIR R4 Patient -> residents row. The facility comes from the ingest path, not from
// managingOrganization; admission, discharge and transfer events are decided in
// apply-change-set.ts, where the row's facility is known.
import { bounded, fullDate, identifiers, issue, mapped, object, oneOf, text, type ResourceMapping } from './resource-mapping.js';

const GENDERS = ['male', 'female', 'other', 'unknown'] as const;

function officialName(names: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(names)) return undefined;
  const all = names.map(object).filter((n): n is Record<string, unknown> => n !== undefined);
  return all.find((n) => n.use === 'official') ?? all.find((n) => n.use === 'usual' || n.use === undefined) ?? all[0];
}

export const patientMapping: ResourceMapping = {
  type: 'Patient',
  table: 'residents',
  residentElement: null,
  toColumns: (resource) =>
    mapped(() => {
      const ids = identifiers(resource);
      if (ids.length === 0) issue('required', 'Patient.identifier is required: the resident is matched on it', 'Patient.identifier');
      const name = officialName(resource.name);
      const family = text(name?.family);
      if (!family) issue('required', 'Patient.name needs a family name', 'Patient.name.family');
      const given = Array.isArray(name?.given) ? (name.given as unknown[]).filter((g): g is string => typeof g === 'string' && g !== '') : [];
      if (resource.active !== undefined && typeof resource.active !== 'boolean') issue('value', 'Patient.active must be true or false', 'Patient.active');
      return {
        identifiers: JSON.stringify(ids),
        family_name: bounded(family, 200, 'Patient.name.family'),
        given_names: JSON.stringify(given),
        gender: resource.gender === undefined ? 'unknown' : oneOf(resource.gender, GENDERS, 'Patient.gender'),
        // 0..1 in R4 and US Core: a Patient without one is kept without one (an update without
        // one clears it, as a FHIR update replaces the resource); a malformed one is refused.
        birth_date: resource.birthDate === undefined ? null : fullDate(resource.birthDate, 'Patient.birthDate'),
        // FHIR: a Patient without `active` is taken as active.
        active: resource.active !== false,
      };
    }),
  events: () => [],
};
