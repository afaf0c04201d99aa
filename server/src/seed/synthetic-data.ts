// Realistic synthetic residents for a facility: masked identifiers, several coverages per
// resident in payer order, blood pressure and single-value vitals over time, allergies.
// Rows are written in batches inside one transaction per chunk of residents.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
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
  onProgress?: (done: number, total: number) => void;
}

const RESIDENTS_PER_CHUNK = 500;
const ROWS_PER_INSERT = 400;

function quantity(value: number, unit: string) {
  return { value, unit, system: UCUM, code: unit };
}

function isoDay(random: Random, fromYear: number, toYear: number): string {
  const year = random.int(fromYear, toYear);
  const month = String(random.int(1, 12)).padStart(2, '0');
  const day = String(random.int(1, 28)).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

export async function seedFacility(db: Knex, options: SeedOptions): Promise<SeedCounts> {
  const random = new Random(options.randomSeed ?? Date.now());
  const rounds = options.vitalRounds ?? 2;
  const counts: SeedCounts = { residents: 0, coverage: 0, observations: 0, allergies: 0 };
  const base = { org_id: options.orgId, facility_id: options.facilityId };
  const createdAt = nowIso();
  const roundStart = Date.now() - rounds * 86_400_000;

  for (let start = 0; start < options.residents; start += RESIDENTS_PER_CHUNK) {
    const residents: Record<string, unknown>[] = [];
    const coverage: Record<string, unknown>[] = [];
    const observations: Record<string, unknown>[] = [];
    const allergies: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(options.residents, start + RESIDENTS_PER_CHUNK); i++) {
      const residentId = random.uuid();
      residents.push({
        ...base,
        id: residentId,
        identifiers: JSON.stringify([
          { system: 'https://ofctx.example/fhir/sid/mrn', value: `MRN-${String(i + 1).padStart(7, '0')}` },
          { system: 'http://hl7.org/fhir/sid/us-ssn', value: `XXX-XX-${random.digits(4)}` },
          { system: 'http://hl7.org/fhir/sid/us-mbi', value: `*****${random.digits(4)}${random.pick(['A', 'K', 'M', 'T'])}` },
        ]),
        family_name: random.pick(FAMILY_NAMES),
        given_names: JSON.stringify([random.pick(GIVEN_NAMES), ...(random.next() < 0.4 ? [random.pick(GIVEN_NAMES)] : [])]),
        gender: random.next() < 0.02 ? 'unknown' : random.pick(['female', 'female', 'male'] as const),
        birth_date: isoDay(random, 1925, 1960),
        active: random.next() < 0.92,
        created_at: createdAt,
      });
      const policies = random.int(1, 3);
      const payers = [...PAYERS].sort(() => random.next() - 0.5).slice(0, policies);
      payers.forEach((payer, index) => {
        coverage.push({
          ...base,
          id: random.uuid(),
          resident_id: residentId,
          status: random.next() < 0.85 ? 'active' : random.pick(['cancelled', 'draft'] as const),
          payor_name: payer,
          subscriber_id: random.next() < 0.5 ? `XXXXXXX${random.digits(4)}A` : `*****${random.digits(4)}${random.pick(['A', 'B', 'C'])}`,
          period_start: isoDay(random, 2019, 2026),
          coverage_order: index + 1,
          created_at: createdAt,
        });
      });
      for (let round = 0; round < rounds; round++) {
        const effective = nowIso(roundStart + round * 86_400_000 + random.int(0, 3_600_000));
        const status = random.next() < 0.97 ? 'final' : random.pick(['amended', 'preliminary'] as const);
        const systolic = random.int(105, 165);
        const diastolic = random.int(60, 95);
        observations.push({
          ...base,
          id: random.uuid(),
          resident_id: residentId,
          status,
          code_system: LOINC,
          code: BLOOD_PRESSURE.panel.code,
          display: BLOOD_PRESSURE.panel.display,
          effective_at: effective,
          value_string: `${systolic}/${diastolic} ${BLOOD_PRESSURE.unit}`,
          value_quantity: null,
          components: JSON.stringify([
            { code: { system: LOINC, ...BLOOD_PRESSURE.systolic }, valueQuantity: quantity(systolic, BLOOD_PRESSURE.unit) },
            { code: { system: LOINC, ...BLOOD_PRESSURE.diastolic }, valueQuantity: quantity(diastolic, BLOOD_PRESSURE.unit) },
          ]),
        });
        for (const vital of SINGLE_VALUE_VITALS) {
          const value = Number((vital.min + random.next() * (vital.max - vital.min)).toFixed(vital.decimals));
          observations.push({
            ...base,
            id: random.uuid(),
            resident_id: residentId,
            status,
            code_system: LOINC,
            code: vital.code,
            display: vital.display,
            effective_at: effective,
            value_string: `${value} ${vital.unit}`,
            value_quantity: JSON.stringify(quantity(value, vital.unit)),
            components: null,
          });
        }
      }
      const allergyCount = random.pick([0, 0, 1, 1, 2, 3]);
      const chosen = [...ALLERGENS].sort(() => random.next() - 0.5).slice(0, allergyCount);
      for (const allergen of chosen) {
        allergies.push({
          ...base,
          id: random.uuid(),
          resident_id: residentId,
          code_system: ALLERGEN_SYSTEM,
          code: allergen.code,
          display: allergen.display,
          clinical_status: random.next() < 0.85 ? 'active' : random.pick(['inactive', 'resolved'] as const),
        });
      }
    }
    await db.transaction(async (trx) => {
      for (const [table, rows] of [['residents', residents], ['coverage', coverage], ['observations', observations], ['allergies', allergies]] as const) {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await trx(table).insert(rows.slice(i, i + ROWS_PER_INSERT));
      }
    });
    counts.residents += residents.length;
    counts.coverage += coverage.length;
    counts.observations += observations.length;
    counts.allergies += allergies.length;
    options.onProgress?.(counts.residents, options.residents);
  }
  return counts;
}
