// A FHIR Quantity as stored (JSON): value, comparator, unit, system and code as the source sent
// them. A unit without a system that is a valid UCUM code gets the UCUM system and code (what
// a sender means by `mg/dL`); any other unit is kept as text, which FHIR allows.
import { UCUM_SYSTEM, isUcumCode } from '../ucum-units.js';
import { bounded, issue, object, text } from './resource-mapping.js';

export interface StoredQuantity {
  value: number;
  comparator?: '<' | '<=' | '>=' | '>';
  unit?: string;
  system?: string;
  code?: string;
}

const COMPARATORS = ['<', '<=', '>=', '>'] as const;

/** `simple`: a SimpleQuantity (a range's low and high), which has no comparator. */
export function storedQuantity(value: unknown, where: string, simple = false): StoredQuantity {
  const q = object(value);
  if (!q || typeof q.value !== 'number' || !Number.isFinite(q.value)) issue('required', `${where} needs a numeric value`, `${where}.value`);
  let comparator: StoredQuantity['comparator'];
  if (q.comparator !== undefined) {
    if (simple || !(COMPARATORS as readonly unknown[]).includes(q.comparator)) issue('value', simple ? `${where} is a SimpleQuantity: no comparator` : `${where}.comparator must be one of ${COMPARATORS.join(', ')}`, `${where}.comparator`);
    comparator = q.comparator as StoredQuantity['comparator'];
  }
  const unit = text(q.unit);
  let system = text(q.system);
  let code = text(q.code);
  if (system === undefined) {
    // A code without a system was always read as UCUM here; a bare unit is UCUM only when it is valid UCUM.
    if (code !== undefined) system = UCUM_SYSTEM;
    else if (unit !== undefined && isUcumCode(unit)) [system, code] = [UCUM_SYSTEM, unit];
  } else if (code === undefined && system === UCUM_SYSTEM && unit !== undefined) {
    code = unit;
  }
  return {
    value: q.value,
    ...(comparator ? { comparator } : {}),
    ...(unit ?? code ? { unit: bounded((unit ?? code)!, 200, `${where}.unit`) } : {}),
    ...(system ? { system: bounded(system, 200, `${where}.system`) } : {}),
    ...(code ? { code: bounded(code, 64, `${where}.code`) } : {}),
  };
}

/** A vital sign's component quantity: UCUM only, as the `/ofctx/` shape states. */
export function ucumQuantity(value: unknown, where: string): { value: number; unit: string; system: string; code: string } {
  const q = object(value);
  if (!q || typeof q.value !== 'number' || !Number.isFinite(q.value)) issue('required', `${where} needs a numeric value`, `${where}.value`);
  const code = text(q.code) ?? text(q.unit);
  if (!code) issue('required', `${where} needs a UCUM code or unit`, `${where}.code`);
  if (q.system !== undefined && q.system !== UCUM_SYSTEM) issue('value', `${where}.system must be ${UCUM_SYSTEM}`, `${where}.system`);
  return { value: q.value, unit: text(q.unit) ?? code, system: UCUM_SYSTEM, code };
}

/** The quantity as text: `<5 mg/dL`, `182 mg/dL`, `7`. */
export function quantityText(q: StoredQuantity): string {
  return `${q.comparator ?? ''}${q.value}${q.unit ? ` ${q.unit}` : ''}`;
}
