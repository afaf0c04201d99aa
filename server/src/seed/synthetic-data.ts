// Realistic synthetic residents for a facility: masked identifiers, several coverages per
// resident in payer order, blood pressure and single-value vitals over time, allergies.
// They are written as FHIR R4 resources through applyChangeSet, the same road as a real
// system of record, so seeding exercises ingestion: rows are versioned, audited (actor
// `seed`), and emit their events when asked (`emitEvents`, `ops seed --events`).
import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { applyChangeSet } from '../ingest/apply-change-set.js';
import type { IngestResource, ResourceChange } from '../ingest/change-set.js';
import { Random } from './random.js';
import {
  ALLERGENS, ALLERGEN_SYSTEM, BLOOD_PRESSURE, FAMILY_NAMES, GIVEN_NAMES, LOINC, PAYERS, SINGLE_VALUE_VITALS, UCUM,
} from './vocabulary.js';

export interface SeedCounts {
  residents: number;
  coverage: number;
  observations: number;
  allergies: number;
}

export interface SeedOptions {
  orgId: string;
  facilityId: string;
  residents: number;
  /** Vital-sign rounds per resident; each round records blood pressure and five single vitals. */
  vitalRounds?: number;
  randomSeed?: number;
  /** Queue the events of the new residents and coverage (admissions...). Off by default. */
  emitEvents?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export const SEED_MRN_SYSTEM = 'https://ofctx.example/fhir/sid/mrn';
const RESIDENTS_PER_CHUNK = 200;
const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const COUNTED: Record<string, keyof SeedCounts> = { Patient: 'residents', Coverage: 'coverage', Observation: 'observations', AllergyIntolerance: 'allergies' };

function quantity(value: number, unit: string) {
  return { value, unit, system: UCUM, code: unit };
}

function isoDay(random: Random, fromYear: number, toYear: number): string {
  const year = random.int(fromYear, toYear);
  const month = String(random.int(1, 12)).padStart(2, '0');
  const day = String(random.int(1, 28)).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/** One resident and everything recorded about it, as FHIR R4 resources. */
function residentResources(random: Random, rounds: number, roundStart: number): ResourceChange[] {
  // Random digits, not a counter: MRNs are matched organization-wide, and two facilities
  // seeded alike must not share residents. The same --random-seed gives the same residents.
  const mrn = { system: SEED_MRN_SYSTEM, value: `MRN-${random.digits(10)}` };
  const subject = { reference: `Patient?identifier=${mrn.system}|${mrn.value}` };
  const changes: ResourceChange[] = [];
  const add = (resource: Record<string, unknown>, match?: ResourceChange['match']) =>
    changes.push({ resource: resource as IngestResource, at: `seed ${mrn.value} ${resource.resourceType as string}`, ...(match ? { match } : {}) });
  add(
    {
      resourceType: 'Patient',
      identifier: [
        mrn,
        { system: 'http://hl7.org/fhir/sid/us-ssn', value: `XXX-XX-${random.digits(4)}` },
        { system: 'http://hl7.org/fhir/sid/us-mbi', value: `*****${random.digits(4)}${random.pick(['A', 'K', 'M', 'T'])}` },
      ],
      active: random.next() < 0.92,
      name: [{ use: 'official', family: random.pick(FAMILY_NAMES), given: [random.pick(GIVEN_NAMES), ...(random.next() < 0.4 ? [random.pick(GIVEN_NAMES)] : [])] }],
      gender: random.next() < 0.02 ? 'unknown' : random.pick(['female', 'female', 'male'] as const),
      birthDate: isoDay(random, 1925, 1960),
    },
    { identifier: mrn },
  );
  const policies = random.int(1, 3);
  const payers = [...PAYERS].sort(() => random.next() - 0.5).slice(0, policies);
  payers.forEach((payer, index) => {
    add({
      resourceType: 'Coverage',
      status: random.next() < 0.85 ? 'active' : random.pick(['cancelled', 'draft'] as const),
      beneficiary: subject,
      payor: [{ display: payer }],
      subscriberId: random.next() < 0.5 ? `XXXXXXX${random.digits(4)}A` : `*****${random.digits(4)}${random.pick(['A', 'B', 'C'])}`,
      period: { start: isoDay(random, 2019, 2026) },
      order: index + 1,
    });
  });
  for (let round = 0; round < rounds; round++) {
    const effective = nowIso(roundStart + round * 86_400_000 + random.int(0, 3_600_000));
    const status = random.next() < 0.97 ? 'final' : random.pick(['amended', 'preliminary'] as const);
    const systolic = random.int(105, 165);
    const diastolic = random.int(60, 95);
    add({
      resourceType: 'Observation',
      status,
      code: { coding: [{ system: LOINC, ...BLOOD_PRESSURE.panel }] },
      subject,
      effectiveDateTime: effective,
      component: [
        { code: { coding: [{ system: LOINC, ...BLOOD_PRESSURE.systolic }] }, valueQuantity: quantity(systolic, BLOOD_PRESSURE.unit) },
        { code: { coding: [{ system: LOINC, ...BLOOD_PRESSURE.diastolic }] }, valueQuantity: quantity(diastolic, BLOOD_PRESSURE.unit) },
      ],
    });
    for (const vital of SINGLE_VALUE_VITALS) {
      const value = Number((vital.min + random.next() * (vital.max - vital.min)).toFixed(vital.decimals));
      add({
        resourceType: 'Observation',
        status,
        code: { coding: [{ system: LOINC, code: vital.code, display: vital.display }] },
        subject,
        effectiveDateTime: effective,
        valueQuantity: quantity(value, vital.unit),
      });
    }
  }
  const allergyCount = random.pick([0, 0, 1, 1, 2, 3]);
  const chosen = [...ALLERGENS].sort(() => random.next() - 0.5).slice(0, allergyCount);
  for (const allergen of chosen) {
    add({
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: random.next() < 0.85 ? 'active' : random.pick(['inactive', 'resolved'] as const) }] },
      code: { coding: [{ system: ALLERGEN_SYSTEM, code: allergen.code, display: allergen.display }] },
      patient: subject,
    });
  }
  return changes;
}

export async function seedFacility(db: Knex, options: SeedOptions): Promise<SeedCounts> {
  // Not the clock: two facilities seeded in the same millisecond must not share residents.
  const random = new Random(options.randomSeed ?? randomInt(2 ** 31));
  const rounds = options.vitalRounds ?? 2;
  const counts: SeedCounts = { residents: 0, coverage: 0, observations: 0, allergies: 0 };
  const roundStart = Date.now() - rounds * 86_400_000;
  let done = 0;
  for (let start = 0; start < options.residents; start += RESIDENTS_PER_CHUNK) {
    const changes: ResourceChange[] = [];
    const residents = Math.min(options.residents, start + RESIDENTS_PER_CHUNK) - start;
    for (let i = 0; i < residents; i++) changes.push(...residentResources(random, rounds, roundStart));
    const result = await applyChangeSet(
      db,
      { orgId: options.orgId, facilityId: options.facilityId, mode: 'batch', actor: 'seed', emitEvents: options.emitEvents ?? false, changes },
      { chunkSize: changes.length },
    );
    for (const outcome of result.outcomes) {
      if (outcome.outcome === 'rejected') throw new Error(`seed data was rejected at ${outcome.at}: ${outcome.issue.diagnostics}`);
      const counted = COUNTED[outcome.resourceType];
      if (counted) counts[counted]++;
    }
    done += residents;
    options.onProgress?.(done, options.residents);
  }
  return counts;
}
