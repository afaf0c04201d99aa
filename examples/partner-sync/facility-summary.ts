// What a sync learned about a facility, accumulated one record at a time so that a facility
// of any size fits in memory: counts and tallies only, never the records themselves (a real
// partner would write each record to its own store as it arrives).
import type { AllergyIntolerance, Coverage, Observation, Patient } from '@ofctx/sdk';

export interface FacilitySummaryJson {
  orgId: string;
  facilityId: string;
  residents: { total: number; active: number; withActiveCoverage: number; withoutActiveCoverage: number };
  coverage: { total: number; active: number; activeByPayer: Record<string, number> };
  vitals: {
    observations: number;
    /** Residents with at least one observation. */
    residentsWithVitals: number;
    /** Per vital sign (LOINC display): how many residents have a latest reading of it. */
    residentsWithLatest: Record<string, number>;
  };
  allergies: { total: number; residentsWithAllergies: number; byAllergen: Record<string, number> };
  /** Coverage, observations or allergies naming a resident the resident list did not have (added mid-sync). */
  recordsOfUnlistedResidents: number;
  pages: { residents: number; coverage: number; observations: number; allergies: number };
}

/** The latest reading of one vital sign for one resident. */
interface LatestReading {
  effective: string;
  value: string;
}

interface ResidentTally {
  activeCoverage: number;
  /** LOINC display -> latest reading. */
  latestVitals: Map<string, LatestReading>;
  allergies: number;
}

/** `Patient/123` -> `123`. References are how FHIR resources point at their resident. */
function residentIdOf(reference: string | undefined): string | undefined {
  return reference?.startsWith('Patient/') ? reference.slice('Patient/'.length) : undefined;
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

export class FacilitySummary {
  private readonly residents = new Map<string, ResidentTally>();
  private activeResidents = 0;
  private coverageTotal = 0;
  private coverageActive = 0;
  private readonly activeByPayer: Record<string, number> = {};
  private observationTotal = 0;
  private allergyTotal = 0;
  private readonly byAllergen: Record<string, number> = {};
  private unlisted = 0;
  readonly pages = { residents: 0, coverage: 0, observations: 0, allergies: 0 };

  constructor(
    readonly orgId: string,
    readonly facilityId: string,
  ) {}

  addResident(patient: Patient): void {
    this.residents.set(patient.id, { activeCoverage: 0, latestVitals: new Map(), allergies: 0 });
    if (patient.active) this.activeResidents += 1;
  }

  addCoverage(coverage: Coverage): void {
    this.coverageTotal += 1;
    if (coverage.status !== 'active') return;
    this.coverageActive += 1;
    // The payer is named in the reference (`Organization/Medicaid`).
    const payer = coverage.payor[0]?.reference?.replace(/^Organization\//, '') ?? 'unknown payer';
    increment(this.activeByPayer, payer);
    const tally = this.tallyOf(coverage.beneficiary.reference);
    if (tally) tally.activeCoverage += 1;
  }

  addObservation(observation: Observation): void {
    this.observationTotal += 1;
    const tally = this.tallyOf(observation.subject.reference);
    if (!tally) return;
    const vital = observation.code.display ?? observation.code.code;
    const effective = observation.effectiveDateTime ?? '';
    const known = tally.latestVitals.get(vital);
    // ISO 8601 UTC timestamps compare correctly as text.
    if (!known || effective > known.effective) tally.latestVitals.set(vital, { effective, value: observation.valueString ?? '' });
  }

  addAllergy(allergy: AllergyIntolerance): void {
    this.allergyTotal += 1;
    increment(this.byAllergen, allergy.code.display ?? allergy.code.code);
    const tally = this.tallyOf(allergy.patient.reference);
    if (tally) tally.allergies += 1;
  }

  /** Residents are read first, so a record of an unknown resident is one admitted mid-sync. */
  private tallyOf(reference: string | undefined): ResidentTally | undefined {
    const id = residentIdOf(reference);
    const tally = id === undefined ? undefined : this.residents.get(id);
    if (!tally) this.unlisted += 1;
    return tally;
  }

  toJSON(): FacilitySummaryJson {
    const tallies = [...this.residents.values()];
    const residentsWithLatest: Record<string, number> = {};
    for (const tally of tallies) for (const vital of tally.latestVitals.keys()) increment(residentsWithLatest, vital);
    const withActiveCoverage = tallies.filter((t) => t.activeCoverage > 0).length;
    return {
      orgId: this.orgId,
      facilityId: this.facilityId,
      residents: { total: this.residents.size, active: this.activeResidents, withActiveCoverage, withoutActiveCoverage: this.residents.size - withActiveCoverage },
      coverage: { total: this.coverageTotal, active: this.coverageActive, activeByPayer: sortedByCount(this.activeByPayer) },
      vitals: {
        observations: this.observationTotal,
        residentsWithVitals: tallies.filter((t) => t.latestVitals.size > 0).length,
        residentsWithLatest: sortedByCount(residentsWithLatest),
      },
      allergies: { total: this.allergyTotal, residentsWithAllergies: tallies.filter((t) => t.allergies > 0).length, byAllergen: sortedByCount(this.byAllergen) },
      recordsOfUnlistedResidents: this.unlisted,
      pages: { ...this.pages },
    };
  }
}

/** Largest count first, so the printed tallies read like a ranking. */
function sortedByCount(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}
