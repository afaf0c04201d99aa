// Worlds of access policies for the tenancy suite (issue 23): residents with coverages of a few
// payers, security labels on any record, privacy consents that deny purposes for a period and
// may be lifted, and credentials with a purpose of use, payers and a sensitive clearance. The
// data is written through applyChangeSet, the one ingest road. `visibleIn` is the suite's own
// model of who may see what, written from the rules and the generated spec only (never
// from the database or the server's filter), so the service is checked against it.
import fc from 'fast-check';
import type { PurposeOfUse } from '../../../server/src/tenancy/access-policy.js';

export const POLICY_PURPOSES = ['TREAT', 'HPAYMT', 'HOPERAT'] as const satisfies readonly PurposeOfUse[];
/** A payer: its display and its identifier value; a Coverage names it by either or both. */
export const POLICY_PAYERS = [
  { display: 'Acme Health', id: 'ACME-01' },
  { display: 'Beta Care', id: 'BETA-77' },
  { display: 'Medicare Part A', id: 'CMS-A' },
] as const;
export const FAMILIES = ['Okafor', 'Lindqvist'] as const;

/** A security label: restricted ones (v3 Confidentiality R or V, ActCode sensitivity) and harmless ones. */
export const LABELS = {
  none: null,
  normal: { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'N', restricted: false },
  restricted: { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', restricted: true },
  veryRestricted: { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'V', restricted: true },
  psychiatry: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'PSY', restricted: true },
  substanceUse: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'SUD', restricted: true },
} as const;
export type LabelName = keyof typeof LABELS;
const labelArb = fc.constantFrom<LabelName>('none', 'none', 'none', 'normal', 'restricted', 'veryRestricted', 'psychiatry', 'substanceUse');

/** How a Coverage names its payer, and the letter case it is written in. */
export interface CoverageSpec {
  payer: number;
  by: 'display' | 'id' | 'both';
  upper: boolean;
  label: LabelName;
}

/** A consent: deny these purposes (empty: every purpose but TREAT) in a period, perhaps lifted later. */
export interface ConsentSpec {
  purposes: Array<(typeof POLICY_PURPOSES)[number]>;
  period: 'none' | 'past' | 'current' | 'future';
  lift: 'no' | 'inactive' | 'permit';
}

export interface ResidentSpec {
  facility: number;
  family: number;
  label: LabelName;
  coverages: CoverageSpec[];
  observations: LabelName[];
  allergies: LabelName[];
  consents: ConsentSpec[];
}

export interface CredentialSpec {
  purpose: (typeof POLICY_PURPOSES)[number];
  /** Payer indices, each given by display or identifier in any case; null: no payer restriction. */
  payers: Array<{ payer: number; by: 'display' | 'id'; upper: boolean }> | null;
  sensitive: boolean;
}

export interface PolicyWorldSpec {
  facilities: number;
  residents: ResidentSpec[];
  credentials: CredentialSpec[];
  pageSize: number;
}

const consentArb: fc.Arbitrary<ConsentSpec> = fc.record({
  purposes: fc.subarray([...POLICY_PURPOSES]),
  period: fc.constantFrom('none', 'none', 'past', 'current', 'future'),
  lift: fc.constantFrom('no', 'no', 'inactive', 'permit'),
});

export const policyWorldArb: fc.Arbitrary<PolicyWorldSpec> = fc.integer({ min: 1, max: 2 }).chain((facilities) =>
  fc.record({
    facilities: fc.constant(facilities),
    residents: fc.array(
      fc.record({
        facility: fc.integer({ min: 0, max: facilities - 1 }),
        family: fc.integer({ min: 0, max: FAMILIES.length - 1 }),
        label: labelArb,
        coverages: fc.array(
          fc.record({ payer: fc.integer({ min: 0, max: POLICY_PAYERS.length - 1 }), by: fc.constantFrom('display', 'id', 'both'), upper: fc.boolean(), label: labelArb }),
          { maxLength: 2 },
        ),
        observations: fc.array(labelArb, { maxLength: 2 }),
        allergies: fc.array(labelArb, { maxLength: 1 }),
        consents: fc.array(consentArb, { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    credentials: fc.array(
      fc.record({
        purpose: fc.constantFrom(...POLICY_PURPOSES),
        payers: fc.option(fc.array(fc.record({ payer: fc.integer({ min: 0, max: POLICY_PAYERS.length - 1 }), by: fc.constantFrom('display', 'id'), upper: fc.boolean() }), { minLength: 1, maxLength: 2 }), { freq: 2 }),
        sensitive: fc.boolean(),
      }),
      { minLength: 2, maxLength: 4 },
    ),
    pageSize: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(200)),
  }),
);

const DAY = 86_400_000;

/** The FHIR period of a consent, relative to now (a day of margin on each side). */
export function consentPeriod(period: ConsentSpec['period'], now = Date.now()): { start?: string; end?: string } | undefined {
  const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10);
  switch (period) {
    case 'none':
      return undefined;
    case 'past':
      return { start: day(-30), end: day(-2) };
    case 'current':
      return { start: day(-2), end: day(30) };
    case 'future':
      return { start: day(2), end: day(30) };
  }
}

export function payerValue(payer: number, by: 'display' | 'id', upper: boolean): string {
  const value = by === 'display' ? POLICY_PAYERS[payer]!.display : POLICY_PAYERS[payer]!.id;
  return upper ? value.toUpperCase() : value.toLowerCase();
}

/** Does this consent deny this purpose now? (The model: the rules, nothing else.) */
function denies(consent: ConsentSpec, purpose: CredentialSpec['purpose']): boolean {
  if (consent.lift !== 'no') return false;
  if (consent.period === 'past' || consent.period === 'future') return false;
  return consent.purposes.length === 0 ? purpose !== 'TREAT' : consent.purposes.includes(purpose);
}

/** Is this Coverage one of the credential's payers (display or identifier value, case-insensitive)? */
function coverageOfPayers(coverage: CoverageSpec, credential: CredentialSpec): boolean {
  const names = new Set<string>();
  if (coverage.by !== 'id') names.add(POLICY_PAYERS[coverage.payer]!.display.toLowerCase());
  if (coverage.by !== 'display') names.add(POLICY_PAYERS[coverage.payer]!.id.toLowerCase());
  return credential.payers!.some((p) => names.has(payerValue(p.payer, p.by, false)));
}

const restricted = (label: LabelName) => LABELS[label]?.restricted === true;

/** What one credential may see of one resident: the resident, and which of each kind of record (by index). */
export interface Visible {
  resident: boolean;
  coverages: boolean[];
  observations: boolean[];
  allergies: boolean[];
}

export function visibleIn(resident: ResidentSpec, credential: CredentialSpec): Visible {
  const hiddenLabel = (label: LabelName) => restricted(label) && !credential.sensitive;
  const residentSeen =
    !hiddenLabel(resident.label) &&
    !resident.consents.some((c) => denies(c, credential.purpose)) &&
    (credential.payers === null || resident.coverages.some((c) => coverageOfPayers(c, credential)));
  const records = (labels: LabelName[]) => labels.map((label) => residentSeen && !hiddenLabel(label));
  return {
    resident: residentSeen,
    coverages: resident.coverages.map((c) => residentSeen && !hiddenLabel(c.label) && (credential.payers === null || coverageOfPayers(c, credential))),
    observations: records(resident.observations),
    allergies: records(resident.allergies),
  };
}
