// "May this credential see this resident / record", as ONE SQL restriction joinable to any
// query over a resident table (residents, coverage, observations, allergies, conditions,
// service_requests, medication_requests, and whatever table carries a resident_id). Every read
// path applies it inside its query (lists and reads of /ofctx/, the R4 view and its searches,
// sync pages and cursors, totals, exports), the event log and webhook deliveries apply its
// resident form; so pages stay full, keysets stay exact, and a hidden record is not found
// (404), exactly like an unknown id. A row is visible when:
//   - it carries no restricted security label, nor does its resident's Patient, unless the
//     credential is --sensitive;
//   - no active patient-privacy Consent of its resident denies the credential's purpose now
//     (a deny without purposes denies every purpose but TREAT);
//   - for a payer-scoped credential: its resident has a Coverage of one of the payers (by
//     payor identifier value or display, case-insensitive), and a Coverage row is itself one;
//   - for a token with granular scopes (issue 45), of a type they restrict: it matches one of
//     their searches (tenancy/granular-restriction.ts). That restriction is the token's, not
//     the credential's, and bears on rows of that type only (not on the resident of a record).
// Aliases inside the restriction start with `vis_`, so they never clash with the caller's.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { preparedStatements } from '../db/prepared-statements.js';
import type { AccessPolicy } from './access-policy.js';
import { stampOf, type FacilityCounts } from '../db/facility-stamp.js';
import type { GranularRestriction } from './granular-restriction.js';
import type { SqlFragment } from './sql-fragment.js';

/** What the organization holds that a policy may hide (organizations' flags, never cleared). */
export interface OrganizationFlags {
  restrictedRecords: boolean;
  consentDenials: boolean;
}

/** The restriction a policy puts on one organization's rows, at one instant. */
export class RecordFilter {
  constructor(
    readonly policy: AccessPolicy,
    readonly flags: OrganizationFlags,
    /** Consents' periods are compared with this instant. */
    readonly now: string = nowIso(),
    /** The token's granular scopes, when it has any. */
    readonly granular?: GranularRestriction,
  ) {}

  /** True when nothing can be hidden: the unfiltered fast paths (facility counters) apply. */
  get isEmpty(): boolean {
    return this.granular === undefined && this.policyHidesNothing;
  }

  /** True when the policy hides no resident (a token's granular scopes aside). */
  get policyHidesNothing(): boolean {
    return this.policy.payers === null && !this.flags.consentDenials && (this.policy.sensitive || !this.flags.restrictedRecords);
  }

  /**
   * The payers, when they are all this filter can hide: no consent denials, and no restricted
   * record hidden (the credential is --sensitive or the organization holds none). Then a
   * Coverage is visible exactly when its payer is one of them, and the payer-keyed counters
   * and indexes apply (resources/payer-pages.ts). Null otherwise.
   */
  get payersOnly(): readonly string[] | null {
    if (this.granular !== undefined) return null;
    if (this.flags.consentDenials || (!this.policy.sensitive && this.flags.restrictedRecords)) return null;
    return this.policy.payers;
  }

  /**
   * The restriction on rows of `table` under `alias` (its resident: `id` for residents, else
   * `resident_id`); `granular` false leaves the token's granular scopes out (a resident as the
   * subject of events, not as a Patient read).
   */
  rows(table: string, alias: string = table, granular = true): SqlFragment {
    const parts: string[] = [];
    const bindings: Array<string | number> = [];
    const resident = table === 'residents' ? `${alias}.id` : `${alias}.resident_id`;
    if (!this.policy.sensitive && this.flags.restrictedRecords) {
      parts.push(`${alias}.restricted = 0`);
      if (table !== 'residents') parts.push(`not exists (select 1 from residents vis_r where vis_r.id = ${resident} and vis_r.restricted = 1)`);
    }
    if (this.flags.consentDenials) {
      const everyPurpose = this.policy.purpose === 'TREAT' ? '' : " or vis_c.purposes = '*'";
      parts.push(
        `not exists (select 1 from consents vis_c where vis_c.resident_id = ${resident} and vis_c.status = 'active' and vis_c.decision = 'deny'` +
          ` and vis_c.scope_code = 'patient-privacy' and (vis_c.purposes like ?${everyPurpose})` +
          ' and (vis_c.period_start is null or vis_c.period_start <= ?) and (vis_c.period_end is null or vis_c.period_end > ?))',
      );
      bindings.push(`% ${this.policy.purpose} %`, this.now, this.now);
    }
    const payers = this.policy.payers;
    if (payers !== null) {
      const marks = payers.map(() => '?').join(', ');
      const member = (a: string) => `(lower(${a}.payor_name) in (${marks}) or lower(${a}.payor_id) in (${marks}))`;
      parts.push(table === 'coverage' ? member(alias) : `exists (select 1 from coverage vis_p where vis_p.resident_id = ${resident} and ${member('vis_p')})`);
      bindings.push(...payers, ...payers);
    }
    const restriction = granular ? this.granular?.rows(table, alias) : undefined;
    if (restriction) {
      parts.push(`(${restriction.sql})`);
      bindings.push(...restriction.bindings);
    }
    return { sql: parts.length === 0 ? '1 = 1' : parts.join(' and '), bindings };
  }

  /** The restriction on a resident id held in `residentColumn` (events, deliveries): that resident is visible. */
  resident(residentColumn: string): SqlFragment {
    if (this.policyHidesNothing) return { sql: '1 = 1', bindings: [] };
    const { sql, bindings } = this.rows('residents', 'vis_e', false);
    return { sql: `exists (select 1 from residents vis_e where vis_e.id = ${residentColumn} and ${sql})`, bindings };
  }

  /** Applies the restriction of `table` rows to a knex query (a no-op when nothing can be hidden). */
  apply<Q extends Knex.QueryBuilder>(query: Q, table: string, alias: string = table): Q {
    if (this.isEmpty) return query;
    const { sql, bindings } = this.rows(table, alias);
    return query.whereRaw(sql, bindings) as Q;
  }
}

const FLAGS_SQL = 'select restricted_records, consent_denials from organizations where id = ?';

/** The organization's flags: what it holds that a policy may hide. */
export async function organizationFlags(db: Knex, orgId: string): Promise<OrganizationFlags> {
  // Read at every request that shows records: prepared once, outside a transaction.
  const row = (
    db.isTransaction ? await db('organizations').where({ id: orgId }).first('restricted_records', 'consent_denials') : (await preparedStatements(db).all(FLAGS_SQL, [orgId]))[0]
  ) as FlagColumns | undefined;
  return flagsOf(row);
}

interface FlagColumns {
  restricted_records?: unknown;
  consent_denials?: unknown;
}

function flagsOf(row: FlagColumns | undefined): OrganizationFlags {
  return { restrictedRecords: Number(row?.restricted_records ?? 0) === 1, consentDenials: Number(row?.consent_denials ?? 0) === 1 };
}

/** The filter of a policy (and a token's granular scopes) over an organization's rows, now. */
export async function recordFilterOf(db: Knex, orgId: string, policy: AccessPolicy, granular?: GranularRestriction): Promise<RecordFilter> {
  const flags = await organizationFlags(db, orgId);
  return new RecordFilter(policy, flags, nowIso(), granular);
}

// The flags and the stamp of one facility's rows of a resource (db/facility-stamp.ts),
// in one statement: a list asks both at every request, and on PostgreSQL each is a round trip.
const FLAGS_AND_COUNTS_SQL = `select o.restricted_records, o.consent_denials, c.total, c.layout_version, c.changes
  from organizations o left join facility_resource_counts c on c.resource = ? and c.facility_id = ? where o.id = ?`;

/** recordFilterOf, with the stamp of `facilityId`'s rows of `table` read in the same statement (outside a transaction). */
export async function recordFilterAndStampOf(
  db: Knex,
  orgId: string,
  policy: AccessPolicy,
  table: string,
  facilityId: string,
  granular?: GranularRestriction,
): Promise<{ filter: RecordFilter; stamp: string }> {
  // Shared by the requests of one turn asking it for the same facility (prepared-statements.ts allShared).
  const row = (await preparedStatements(db).allShared(FLAGS_AND_COUNTS_SQL, [table, facilityId, orgId]))[0] as (FlagColumns & FacilityCounts) | undefined;
  return { filter: new RecordFilter(policy, flagsOf(row), nowIso(), granular), stamp: stampOf(row?.total === null || row?.total === undefined ? undefined : row) };
}
