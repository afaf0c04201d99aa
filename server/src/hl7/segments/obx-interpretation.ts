// OBX-8 (abnormal flags, HL7 table 0078, repeating) -> Observation.interpretation. Table 0078's
// codes are those of FHIR's v3 ObservationInterpretation code system (H, L, HH, LL, N, A, AA,
// <, >, S, R, I...), so each is kept as that code; one the code system does not define stays
// under HL7 table 0078's own system.
import type { Hl7Segment } from '@medplum/core';
import { component, repetitions } from '../hl7-fields.js';

export const V3_INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const V2_0078 = 'http://terminology.hl7.org/CodeSystem/v2-0078';

/** The v3 ObservationInterpretation codes table 0078 shares, with their displays. */
const DISPLAYS: Record<string, string> = {
  H: 'High', L: 'Low', HH: 'Critical high', LL: 'Critical low', HU: 'Significantly high', LU: 'Significantly low',
  N: 'Normal', A: 'Abnormal', AA: 'Critical abnormal', '<': 'Off scale low', '>': 'Off scale high',
  S: 'Susceptible', R: 'Resistant', I: 'Intermediate', MS: 'moderately susceptible', VS: 'very susceptible',
  U: 'Significant change up', D: 'Significant change down', B: 'Better', W: 'Worse',
  POS: 'Positive', NEG: 'Negative', IND: 'Indeterminate', DET: 'Detected', ND: 'Not detected', E: 'Equivocal',
  NR: 'Non-reactive', RR: 'Reactive', WR: 'Weakly reactive', EX: 'outside threshold', NCL: 'No CLSI defined breakpoint',
  HX: 'above high threshold', LX: 'below low threshold', SDD: 'Susceptible-dose dependent', SYN: 'Synergy', TOX: 'Cytotoxic substance present',
};
/** Table 0078 codes written otherwise in v3. */
const RENAMED: Record<string, string> = { 'H>': 'HX', 'L<': 'LX' };

export function interpretationOfObx(obx: Hl7Segment): Array<{ coding: Array<{ system: string; code: string; display?: string }>; text?: string }> | undefined {
  const concepts = [];
  for (let r = 0; r < repetitions(obx, 8); r++) {
    const flag = component(obx, 8, 1, r);
    if (!flag) continue;
    const code = RENAMED[flag.toUpperCase()] ?? flag.toUpperCase();
    const display = DISPLAYS[code];
    concepts.push(display ? { coding: [{ system: V3_INTERPRETATION, code, display }], text: display } : { coding: [{ system: V2_0078, code: flag.slice(0, 64) }] });
  }
  return concepts.length ? concepts : undefined;
}
