// Which Coverage a 271 subscriber loop answers: TRN02 equal to the ofctx Coverage id or to an
// identifier the Coverage was ingested with (its source identifier, indexed by applyChangeSet
// in resource_identifiers), else the member id NM109 against that source identifier. Only
// Coverages of the facility the 271 is sent for are candidates.
import type { Knex } from 'knex';
import { isUuid } from '../db/uuid.js';
import { identifierRowsByValue, identifierRowsOfRecords } from '../db/identifier-rows.js';
import type { CoverageDetailColumns } from '../ingest/mapping/coverage.js';

/** A Coverage as read for a 271: every column its FHIR Coverage is written again from (the 270's details too, so a 271 keeps them). */
export interface CoverageRow extends CoverageDetailColumns {
  id: string;
  facility_id: string;
  resident_id: string;
  status: string;
  payor_name: string;
  subscriber_id: string;
  period_start: string;
  period_end: string | null;
  payor_id: string | null;
  coverage_order: number;
  /** The version read: the update is sent with it as ifMatch, so a change in between is a conflict, not overwritten. */
  version_id: number;
  /** Every identifier the Coverage is found by, to be kept on update. */
  identifiers: Array<{ system: string; value: string }>;
}

export type CoverageMatch = { coverage: CoverageRow; by: 'TRN02' | 'NM109' } | { issue: string };

/** The one place a source identifier is looked up: Coverage ids by identifier value, organization-wide. */
export async function coveragesBySourceIdentifier(db: Knex, orgId: string, values: string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const row of await identifierRowsByValue(db, orgId, values, 'Coverage')) found.set(row.value, [...new Set([...(found.get(row.value) ?? []), row.resource_id])]);
  return found;
}

export class CoverageMatcher {
  private constructor(
    private readonly facilityId: string,
    private readonly byIdentifier: Map<string, string[]>,
    private readonly rows: Map<string, CoverageRow>,
  ) {}

  /** Loads, in a few queries, every Coverage the loops' traces and member ids may name. */
  static async load(db: Knex, orgId: string, facilityId: string, keys: Array<{ trace?: string; memberId?: string }>): Promise<CoverageMatcher> {
    const values = [...new Set(keys.flatMap((k) => [k.trace, k.memberId]).filter((v): v is string => Boolean(v) && v!.length <= 300))];
    const byIdentifier = await coveragesBySourceIdentifier(db, orgId, values);
    const ids = new Set<string>([...byIdentifier.values()].flat());
    for (const v of values) if (isUuid(v)) ids.add(v.toLowerCase());
    const rows = new Map<string, CoverageRow>();
    const list = [...ids];
    for (let i = 0; i < list.length; i += 500) {
      const slice = list.slice(i, i + 500);
      const found = (await db('coverage').where({ org_id: orgId }).whereIn('id', slice)) as Array<Record<string, unknown>>;
      const identifiers = await identifierRowsOfRecords(db, orgId, 'Coverage', slice);
      for (const row of found) {
        rows.set(row.id as string, {
          id: row.id as string,
          facility_id: row.facility_id as string,
          resident_id: row.resident_id as string,
          status: row.status as string,
          payor_name: row.payor_name as string,
          subscriber_id: row.subscriber_id as string,
          period_start: row.period_start as string,
          period_end: (row.period_end as string | null) ?? null,
          payor_id: (row.payor_id as string | null) ?? null,
          coverage_order: Number(row.coverage_order),
          coverage_type: (row.coverage_type as string | null) ?? null,
          classes: (row.classes as string | null) ?? null,
          relationship: (row.relationship as string | null) ?? null,
          subscriber_name: (row.subscriber_name as string | null) ?? null,
          subscriber_birth_date: (row.subscriber_birth_date as string | null) ?? null,
          subscriber_gender: (row.subscriber_gender as string | null) ?? null,
          version_id: Number(row.version_id),
          identifiers: identifiers.filter((i) => i.resource_id === row.id).map(({ system, value }) => ({ system, value })),
        });
      }
    }
    return new CoverageMatcher(facilityId, byIdentifier, rows);
  }

  private candidates(value: string | undefined): CoverageRow[] {
    if (!value) return [];
    const ids = new Set(this.byIdentifier.get(value) ?? []);
    if (isUuid(value)) ids.add(value.toLowerCase());
    return [...ids].map((id) => this.rows.get(id)).filter((r): r is CoverageRow => r !== undefined);
  }

  match(loop: { trace?: string; memberId?: string }): CoverageMatch {
    for (const [by, value] of [['TRN02', loop.trace], ['NM109', loop.memberId]] as const) {
      const all = this.candidates(value);
      if (all.length === 0) continue;
      const here = all.filter((r) => r.facility_id === this.facilityId);
      if (here.length === 1) return { coverage: here[0]!, by };
      if (here.length > 1) return { issue: `${by} ${JSON.stringify(value)} matches ${here.length} Coverages of this facility; it must name one` };
      return { issue: `${by} ${JSON.stringify(value)} names a Coverage of another facility; send this 271 for that facility` };
    }
    if (!loop.trace && !loop.memberId) return { issue: 'the loop has neither a trace number (TRN02) nor a member id (NM109)' };
    return { issue: `no Coverage of this facility has the id or source identifier ${[loop.trace && `TRN02 ${JSON.stringify(loop.trace)}`, loop.memberId && `NM109 ${JSON.stringify(loop.memberId)}`].filter(Boolean).join(' or ')}` };
  }
}
