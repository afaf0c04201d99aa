// Whether a unit as a lab writes it (`mg/dL`, `mmol/L`, `10*3/uL`) is a valid UCUM code, as
// the National Library of Medicine's UCUM library (@lhncbc/ucum-lhc) reads it: a Quantity
// then carries system http://unitsofmeasure.org and the code, else only its `unit` text (FHIR
// allows that). Answers are cached: a feed repeats the same few units.
import ucum from '@lhncbc/ucum-lhc';

export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

const utils = ucum.UcumLhcUtils.getInstance();
const known = new Map<string, boolean>();

/**
 * Units that are valid UCUM but do not mean what labs mean by them: `K/uL` parses as kelvin per
 * microliter, where a lab writes thousands per microliter. Such a unit stays text.
 */
const MISREAD = /(^|[^A-Za-z[\]{])K\//;

export function isUcumCode(unit: string): boolean {
  let valid = known.get(unit);
  if (valid === undefined) {
    valid = unit.trim() === unit && unit !== '' && unit.length <= 64 && !MISREAD.test(unit) && utils.validateUnitString(unit, false).status === 'valid';
    if (known.size < 10_000) known.set(unit, valid);
  }
  return valid;
}
