// HL7 v2.5.1 messages that carry more than a Patient, for tests and benchmarks: ORU^R01
// results (OBR + OBX), ORM^O01 orders (ORC + OBR), ADT^A01 with insurance, allergies,
// diagnoses and observations (IN1, AL1, DG1, OBX). Laid out like adt-messages.ts (segments
// ended by CR, PID-3 with an ISO assigning authority, the facility in MSH-4 and PV1-3.4).
import { MRN_OID } from './adt-messages.js';

export interface ClinicalOptions {
  controlId: string;
  mrn: string;
  /** The HL7 code of the facility (MSH-4 and PV1-3.4). */
  facility: string;
}

export interface ObservationOptions {
  /** OBX-2 value type. */
  type: 'NM' | 'ST' | 'CWE' | 'TX' | 'DT';
  code: string;
  value: string;
  units?: string;
}

const msh = (o: ClinicalOptions, type: string) => `MSH|^~\\&|TESTLAB|${o.facility}|OFCTX|OFCTX|20260115083000||${type}|${o.controlId}|P|2.5.1`;
const pid = (o: ClinicalOptions) => `PID|1||${o.mrn}^^^MAPLEMRN&${MRN_OID}&ISO^MR||Okafor^Adaeze^^^^^L||19410317|F`;
const pv1 = (o: ClinicalOptions) => `PV1|1|I|2W^201^A^${o.facility}`;

export function obxSegment(setId: number, obs: ObservationOptions): string {
  return `OBX|${setId}|${obs.type}|${obs.code}^Result ${setId}^LN||${obs.value}|${obs.units ?? ''}|||||F|||20260115080000`;
}

/** The observations of a basic metabolic panel and a CBC, cycled: n numeric results. */
export function labObservations(n: number): ObservationOptions[] {
  const panel: ObservationOptions[] = [
    { type: 'NM', code: '2345-7', value: '98', units: 'mg/dL' },
    { type: 'NM', code: '2951-2', value: '140', units: 'mmol/L' },
    { type: 'NM', code: '2823-3', value: '4.1', units: 'mmol/L' },
    { type: 'NM', code: '2075-0', value: '101', units: 'mmol/L' },
    { type: 'NM', code: '2028-9', value: '24', units: 'mmol/L' },
    { type: 'NM', code: '3094-0', value: '14', units: 'mg/dL' },
    { type: 'NM', code: '2160-0', value: '0.9', units: 'mg/dL' },
    { type: 'NM', code: '6690-2', value: '7.2', units: '10*3/uL' },
    { type: 'NM', code: '718-7', value: '13.1', units: 'g/dL' },
    { type: 'NM', code: '777-3', value: '250', units: '10*3/uL' },
  ];
  return Array.from({ length: n }, (_, i) => panel[i % panel.length]!);
}

/** ORU^R01: one OBR per group, its OBX after it. */
export function oruMessage(o: ClinicalOptions & { groups: ObservationOptions[][] }): string {
  const segments = [msh(o, 'ORU^R01^ORU_R01'), pid(o), pv1(o)];
  o.groups.forEach((observations, g) => {
    segments.push(`OBR|${g + 1}|PLAC-${o.controlId}-${g}|FILL-${o.controlId}-${g}|24323-8^Comprehensive metabolic panel^LN|||20260115070000|||||||||||||||20260115080000|||F`);
    observations.forEach((obs, i) => segments.push(obxSegment(i + 1, obs)));
  });
  return segments.join('\r') + '\r';
}

/** ORM^O01: a new order (ORC-1 NW) with its OBR, and optionally order-level observations. */
export function ormMessage(o: ClinicalOptions & { orders: number; observations?: ObservationOptions[] }): string {
  const segments = [msh(o, 'ORM^O01^ORM_O01'), pid(o), pv1(o)];
  for (let k = 0; k < o.orders; k++) {
    segments.push(`ORC|NW|PLAC-${o.controlId}-${k}|||||^^^20260116080000^^R||20260115083000|||1234^Admit^Ann`);
    segments.push(`OBR|${k + 1}|PLAC-${o.controlId}-${k}||80048^Basic metabolic panel^CPT|||20260116080000`);
    (o.observations ?? []).forEach((obs, i) => segments.push(obxSegment(i + 1, obs)));
  }
  return segments.join('\r') + '\r';
}

/** ADT^A01 with the record: IN1 per plan, AL1 per allergy, DG1 per diagnosis, OBX per observation. */
export function adtRecordMessage(o: ClinicalOptions & { plans: number; allergies: number; diagnoses: number; observations: ObservationOptions[] }): string {
  const segments = [msh(o, 'ADT^A01^ADT_A01'), 'EVN|A01|20260115083000', pid(o), pv1(o)];
  o.observations.forEach((obs, i) => segments.push(obxSegment(i + 1, obs)));
  const allergens = ['PENICILLIN', 'LATEX', 'PEANUT', 'SULFA', 'CODEINE'];
  for (let i = 0; i < o.allergies; i++) segments.push(`AL1|${i + 1}|DA|${allergens[i % allergens.length]}^${allergens[i % allergens.length]}^L|MO|Hives|20200101`);
  const diagnoses = [['I10', 'Essential hypertension'], ['E11.9', 'Type 2 diabetes mellitus'], ['F03.90', 'Dementia']];
  for (let i = 0; i < o.diagnoses; i++) segments.push(`DG1|${i + 1}||${diagnoses[i % diagnoses.length]![0]}^${diagnoses[i % diagnoses.length]![1]}^I10||20260115|A`);
  for (let i = 0; i < o.plans; i++) segments.push(`IN1|${i + 1}|MCR^Medicare Part A|CMS-${i}^^^CMS&2.16.840.1.113883.4.572&ISO|Centers for Medicare and Medicaid Services|||||||||20240101|20291231|||Okafor^Adaeze||19410317|||||||||||||||||||1EG4-TE5-MK7${i}`);
  return segments.join('\r') + '\r';
}
