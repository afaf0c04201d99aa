// OBX-7 (reference range) -> Observation.referenceRange: `70-99` gives low and high, `<5` or
// `<=5` a high, `>60` or `>=60` a low, each a Quantity in the result's unit (OBX-6); any other
// form (`Negative`, `See report`) is kept as the range's text.
import type { Hl7Segment } from '@medplum/core';
import { component } from '../hl7-fields.js';
import { numberOf, type ResultQuantity } from './obx-value.js';

const NUM = '([+-]?(?:\\d+\\.?\\d*|\\.\\d+))';
const BETWEEN = new RegExp(`^${NUM}\\s*(?:-|–|to)\\s*${NUM}$`, 'i');
const BOUND = new RegExp(`^(<=|>=|<|>)\\s*${NUM}$`);

export function referenceRangeOfObx(obx: Hl7Segment, unit: Omit<ResultQuantity, 'value'>): Array<Record<string, unknown>> | undefined {
  const text = component(obx, 7, 1);
  if (!text) return undefined;
  const at = (value: string) => ({ value: numberOf(value)!, ...unit });
  const between = BETWEEN.exec(text);
  if (between && Number(between[1]) <= Number(between[2])) return [{ low: at(between[1]!), high: at(between[2]!), text }];
  const bound = BOUND.exec(text);
  if (bound) return [{ ...(bound[1]!.startsWith('<') ? { high: at(bound[2]!) } : { low: at(bound[2]!) }), text }];
  return [{ text: text.slice(0, 500) }];
}
