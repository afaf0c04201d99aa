// FHIR R4 Observation -> observations row: the first coding, the effective time in UTC, the
// value as text (always: the `/ofctx/` shape's valueString) plus valueQuantity (with its
// comparator, and a unit that is not UCUM kept as text), valueRange, valueRatio,
// valueCodeableConcept or component[] (blood pressure), and what partners chart and alert on
// in a lab result: its category, referenceRange, interpretation and issued time.
import { bounded, categoryColumns, firstCoding, instant, issue, mapped, object, oneOf, storedConcept, text, type ResourceMapping } from './resource-mapping.js';
import { quantityText, storedQuantity, ucumQuantity, type StoredQuantity } from './quantity.js';

const STATUSES = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'] as const;

type Json = Record<string, unknown>;

function storedRange(value: unknown, where: string): { low?: StoredQuantity; high?: StoredQuantity } {
  const range = object(value);
  if (!range) issue('structure', `${where} must be a Range`, where);
  const low = range.low !== undefined ? storedQuantity(range.low, `${where}.low`, true) : undefined;
  const high = range.high !== undefined ? storedQuantity(range.high, `${where}.high`, true) : undefined;
  if (!low && !high) issue('required', `${where} needs a low or a high`, where);
  return { ...(low ? { low } : {}), ...(high ? { high } : {}) };
}

function storedRatio(value: unknown, where: string): { numerator: StoredQuantity; denominator: StoredQuantity } {
  const ratio = object(value);
  if (!ratio) issue('structure', `${where} must be a Ratio`, where);
  return { numerator: storedQuantity(ratio.numerator, `${where}.numerator`), denominator: storedQuantity(ratio.denominator, `${where}.denominator`) };
}

/** Observation.referenceRange: low and high, or the range as text; its type when coded. */
function referenceRanges(value: unknown): Json[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', 'Observation.referenceRange must be an array', 'Observation.referenceRange');
  const ranges = value.map((entry, index) => {
    const where = `Observation.referenceRange[${index}]`;
    const range = object(entry);
    if (!range) issue('structure', `${where} must be an object`, where);
    const low = range.low !== undefined ? storedQuantity(range.low, `${where}.low`, true) : undefined;
    const high = range.high !== undefined ? storedQuantity(range.high, `${where}.high`, true) : undefined;
    const label = text(range.text);
    // FHIR obs-3: a range has at least a low, a high or a text.
    if (!low && !high && !label) issue('required', `${where} needs a low, a high or a text`, where);
    const type = range.type !== undefined ? storedConcept(range.type, `${where}.type`) : undefined;
    return { ...(low ? { low } : {}), ...(high ? { high } : {}), ...(type ? { type } : {}), ...(label ? { text: bounded(label, 500, `${where}.text`) } : {}) };
  });
  return ranges.length ? ranges : null;
}

function interpretations(value: unknown): Json[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', 'Observation.interpretation must be an array', 'Observation.interpretation');
  const concepts = value.map((concept, index) => storedConcept(concept, `Observation.interpretation[${index}]`));
  return concepts.length ? concepts : null;
}

/** The first category with a coded coding (`laboratory`, `vital-signs`...); one without a code is not kept. */
function category(resource: Json) {
  const first = Array.isArray(resource.category) ? object(resource.category[0]) : undefined;
  const coded = Array.isArray(first?.coding) && first.coding.some((c) => text(object(c)?.system) && text(object(c)?.code));
  return categoryColumns(coded ? { category: [first] } : {}, 'Observation');
}

export const observationMapping: ResourceMapping = {
  type: 'Observation',
  table: 'observations',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'Observation.code');
      const effective = instant(resource.effectiveDateTime ?? resource.effectiveInstant, 'Observation.effectiveDateTime');
      const issued = resource.issued !== undefined ? instant(resource.issued, 'Observation.issued') : null;
      let valueQuantity: StoredQuantity | null = null;
      let valueRange: ReturnType<typeof storedRange> | null = null;
      let valueRatio: ReturnType<typeof storedRatio> | null = null;
      let components: Array<{ code: { system: string; code: string; display: string }; valueQuantity: ReturnType<typeof ucumQuantity> }> | null = null;
      let valueString = text(resource.valueString);
      if (resource.valueQuantity !== undefined) {
        valueQuantity = storedQuantity(resource.valueQuantity, 'Observation.valueQuantity');
        valueString ??= quantityText(valueQuantity);
      }
      if (resource.valueRange !== undefined) {
        valueRange = storedRange(resource.valueRange, 'Observation.valueRange');
        const unit = valueRange.high?.unit ?? valueRange.low?.unit;
        valueString ??= `${valueRange.low?.value ?? ''}-${valueRange.high?.value ?? ''}${unit ? ` ${unit}` : ''}`;
      }
      if (resource.valueRatio !== undefined) {
        valueRatio = storedRatio(resource.valueRatio, 'Observation.valueRatio');
        valueString ??= `${quantityText(valueRatio.numerator)}:${quantityText(valueRatio.denominator)}`;
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
          return { code: { system: coding.code_system, code: coding.code, display: coding.display }, valueQuantity: ucumQuantity(object(component)?.valueQuantity, `${where}.valueQuantity`) };
        });
        valueString ??= `${components.map((c) => c.valueQuantity.value).join('/')} ${components[0]!.valueQuantity.unit}`;
      }
      if (valueString === undefined) issue('required', 'Observation needs a value: valueQuantity, valueRange, valueRatio, valueCodeableConcept, valueString or component', 'Observation.value[x]');
      const ranges = referenceRanges(resource.referenceRange);
      const flags = interpretations(resource.interpretation);
      return {
        status: oneOf(resource.status, STATUSES, 'Observation.status'),
        code_system: bounded(code.code_system, 200, 'Observation.code.coding[0].system'),
        code: bounded(code.code, 64, 'Observation.code.coding[0].code'),
        display: bounded(code.display, 200, 'Observation.code.coding[0].display'),
        ...category(resource),
        effective_at: effective,
        issued_at: issued,
        value_string: bounded(valueString, 20_000, 'Observation.valueString'),
        value_quantity: valueQuantity ? JSON.stringify(valueQuantity) : null,
        value_range: valueRange ? JSON.stringify(valueRange) : null,
        value_ratio: valueRatio ? JSON.stringify(valueRatio) : null,
        value_concept: valueConcept ? JSON.stringify(valueConcept) : null,
        components: components ? JSON.stringify(components) : null,
        reference_range: ranges ? JSON.stringify(ranges) : null,
        interpretation: flags ? JSON.stringify(flags) : null,
      };
    }),
  events: () => [],
};
