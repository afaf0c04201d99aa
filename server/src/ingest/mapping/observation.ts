// FHIR R4 Observation -> observations row: the first coding, the effective time in UTC, the
// value as text (always) plus valueQuantity, valueCodeableConcept or component[] (blood
// pressure), as partners read it.
import { bounded, firstCoding, instant, issue, mapped, object, oneOf, storedConcept, text, type ResourceMapping } from './resource-mapping.js';

const STATUSES = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'] as const;
const UCUM = 'http://unitsofmeasure.org';

function quantity(value: unknown, where: string): { value: number; unit: string; system: string; code: string } {
  const q = object(value);
  if (!q || typeof q.value !== 'number' || !Number.isFinite(q.value)) issue('required', `${where} needs a numeric value`, `${where}.value`);
  const code = text(q.code) ?? text(q.unit);
  if (!code) issue('required', `${where} needs a UCUM code or unit`, `${where}.code`);
  if (q.system !== undefined && q.system !== UCUM) issue('value', `${where}.system must be ${UCUM}`, `${where}.system`);
  return { value: q.value, unit: text(q.unit) ?? code, system: UCUM, code };
}

export const observationMapping: ResourceMapping = {
  type: 'Observation',
  table: 'observations',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'Observation.code');
      const effective = instant(resource.effectiveDateTime ?? resource.effectiveInstant, 'Observation.effectiveDateTime');
      let valueQuantity: ReturnType<typeof quantity> | null = null;
      let components: Array<{ code: { system: string; code: string; display: string }; valueQuantity: ReturnType<typeof quantity> }> | null = null;
      let valueString = text(resource.valueString);
      if (resource.valueQuantity !== undefined) {
        valueQuantity = quantity(resource.valueQuantity, 'Observation.valueQuantity');
        valueString ??= `${valueQuantity.value} ${valueQuantity.unit}`;
      }
      let valueConcept: ReturnType<typeof storedConcept> | null = null;
      if (resource.valueCodeableConcept !== undefined) {
        valueConcept = storedConcept(resource.valueCodeableConcept, 'Observation.valueCodeableConcept');
        valueString ??= valueConcept.text ?? valueConcept.coding?.[0]?.display ?? valueConcept.coding?.[0]?.code;
      }
      if (Array.isArray(resource.component) && resource.component.length > 0) {
        components = resource.component.map((component, index) => {
          const where = `Observation.component[${index}]`;
          const coding = firstCoding(object(component)?.code, `${where}.code`);
          return { code: { system: coding.code_system, code: coding.code, display: coding.display }, valueQuantity: quantity(object(component)?.valueQuantity, `${where}.valueQuantity`) };
        });
        valueString ??= `${components.map((c) => c.valueQuantity.value).join('/')} ${components[0]!.valueQuantity.unit}`;
      }
      if (valueString === undefined) issue('required', 'Observation needs a value: valueQuantity, valueCodeableConcept, valueString or component', 'Observation.value[x]');
      return {
        status: oneOf(resource.status, STATUSES, 'Observation.status'),
        code_system: bounded(code.code_system, 200, 'Observation.code.coding[0].system'),
        code: bounded(code.code, 64, 'Observation.code.coding[0].code'),
        display: bounded(code.display, 200, 'Observation.code.coding[0].display'),
        effective_at: effective,
        value_string: bounded(valueString, 20_000, 'Observation.valueString'),
        value_quantity: valueQuantity ? JSON.stringify(valueQuantity) : null,
        value_concept: valueConcept ? JSON.stringify(valueConcept) : null,
        components: components ? JSON.stringify(components) : null,
      };
    }),
  events: () => [],
};
