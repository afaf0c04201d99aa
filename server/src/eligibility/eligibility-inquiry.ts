// What one eligibility question is about, read from the store: the Coverage (payer id and name,
// member id, group number, relationship and subscriber), the resident (name, birth date,
// gender), the facility asking (name, NPI) and the clearinghouse connection its payer is routed
// to. Or why it cannot be asked (not_checkable), in a sentence that says what to fix.
//
// A resident who is the subscriber (relationship self, or none given) is asked about in loop
// 2000C; a dependent (spouse, child, other) in loop 2000D, with the subscriber's name (Coverage
// subscriber, IN1-16) in 2000C. A dependent whose subscriber the feed did not name is asked
// about as the subscriber: CORE's advice for a dependent with a member id of their own.
import type { Knex } from 'knex';
import { preparedStatements } from '../db/prepared-statements.js';
import { CONNECTION_COLUMNS, connectionOf, routeFor, type ConnectionWithSecret } from './clearinghouse-connections.js';
import type { EligibilityInquiry, InquiryPerson } from './x12-270.js';

export interface InquirySubject {
  coverageId: string;
  orgId: string;
  facilityId: string;
  residentId: string;
  coverageStatus: string;
  payer: { name: string; id: string };
  provider: { name: string; npi: string };
  subscriber: EligibilityInquiry['subscriber'];
  dependent?: EligibilityInquiry['dependent'];
  connection: ConnectionWithSecret;
}

export type InquiryReading = { subject: InquirySubject } | { notCheckable: string; facilityId?: string; coverageStatus?: string } | { gone: true };

/** Coverage.relationship (subscriber-relationship) -> 005010X279A1 INS02 of a dependent: 01 spouse, 19 child, 53 life partner, G8 other relationship. */
const DEPENDENT_RELATIONSHIP: Record<string, string> = { spouse: '01', child: '19', common: '53', parent: 'G8', other: 'G8', injured: 'G8' };

function genderOf(value: unknown): InquiryPerson['gender'] {
  return value === 'male' || value === 'female' || value === 'other' || value === 'unknown' ? value : undefined;
}

function jsonOf<T>(value: unknown): T | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}

/**
 * The Coverage with its resident, its facility and its organization's clearinghouse connections
 * (a row each, in their order): one statement, prepared once, since a check is a stream of
 * round trips.
 */
const INQUIRY_SQL = `select c.*, r.id as resident_row_id, r.family_name as resident_family_name, r.given_names as resident_given_names, r.gender as resident_gender, r.birth_date as resident_birth_date,
  f.id as facility_row_id, f.name as facility_name, f.npi as facility_npi, ${CONNECTION_COLUMNS.map((name) => `ch.${name} as ch_${name}`).join(', ')}
  from coverage c
  left join residents r on r.id = c.resident_id
  left join facilities f on f.id = c.facility_id
  left join clearinghouse_connections ch on ch.org_id = c.org_id
  where c.id = ?
  order by ch.seq`;

/** Reads what the 270 for this Coverage needs, or why none can be sent. */
export async function readInquirySubject(db: Knex, coverageId: string): Promise<InquiryReading> {
  const rows = await preparedStatements(db).all(INQUIRY_SQL, [coverageId]);
  const coverage = rows[0];
  if (!coverage) return { gone: true };
  const facilityId = coverage.facility_id as string;
  const coverageStatus = coverage.status as string;
  const refuse = (reason: string): InquiryReading => ({ notCheckable: reason, facilityId, coverageStatus });
  if (!coverage.resident_row_id || !coverage.facility_row_id) return { gone: true };
  const resident = { id: coverage.resident_row_id, family_name: coverage.resident_family_name, given_names: coverage.resident_given_names, gender: coverage.resident_gender, birth_date: coverage.resident_birth_date };
  const facility = { name: coverage.facility_name, npi: coverage.facility_npi };
  if (!['active', 'cancelled'].includes(coverageStatus)) return refuse(`the Coverage is ${coverageStatus}: only active or cancelled Coverages are asked about`);
  const npi = facility.npi as string | null;
  if (!npi) return refuse(`the facility has no NPI, so it cannot ask: ops facility update ${facilityId} --npi NPI`);
  const payerId = coverage.payor_id as string | null;
  if (!payerId) return refuse('the Coverage names no payer id (FHIR payor[0].identifier, HL7 IN1-3, X12 NM1*PR), so no payer can be asked: send it from the system of record');
  const connection = routeFor(rows.filter((row) => row.ch_id).map((row) => connectionOf(row, 'ch_')), payerId);
  if (!connection) return refuse(`no clearinghouse connection of the organization serves payer ${payerId}: ops clearinghouse set --org ${coverage.org_id as string} ... (without --payers for the default)`);
  const given = jsonOf<string[]>(resident.given_names) ?? [];
  const residentPerson: InquiryPerson = {
    lastName: resident.family_name as string,
    ...(given[0] ? { firstName: given[0] } : {}),
    ...(given[1] ? { middleName: given[1] } : {}),
    ...(resident.birth_date ? { birthDate: resident.birth_date as string } : {}),
    ...(genderOf(resident.gender) && resident.gender !== 'unknown' ? { gender: genderOf(resident.gender) } : {}),
  };
  const classes = jsonOf<Array<{ type: string; value: string }>>(coverage.classes) ?? [];
  const groupNumber = classes.find((c) => c.type === 'group')?.value;
  const memberId = coverage.subscriber_id as string;
  const relationship = (coverage.relationship as string | null | undefined) ?? null;
  const subscriberName = jsonOf<{ family?: string; given?: string[] }>(coverage.subscriber_name);
  let subscriber: EligibilityInquiry['subscriber'];
  let dependent: EligibilityInquiry['dependent'];
  if (relationship && relationship !== 'self' && subscriberName?.family) {
    subscriber = {
      memberId,
      lastName: subscriberName.family,
      ...(subscriberName.given?.[0] ? { firstName: subscriberName.given[0] } : {}),
      ...(subscriberName.given?.[1] ? { middleName: subscriberName.given[1] } : {}),
      ...(coverage.subscriber_birth_date ? { birthDate: coverage.subscriber_birth_date as string } : {}),
      ...(genderOf(coverage.subscriber_gender) && coverage.subscriber_gender !== 'unknown' ? { gender: genderOf(coverage.subscriber_gender) } : {}),
      ...(groupNumber ? { groupNumber } : {}),
    };
    dependent = { ...residentPerson, relationship: DEPENDENT_RELATIONSHIP[relationship] ?? 'G8' };
  } else {
    subscriber = { ...residentPerson, memberId, ...(groupNumber ? { groupNumber } : {}) };
  }
  return {
    subject: {
      coverageId,
      orgId: coverage.org_id as string,
      facilityId,
      residentId: resident.id as string,
      coverageStatus,
      payer: { name: coverage.payor_name as string, id: payerId },
      provider: { name: facility.name as string, npi },
      subscriber,
      ...(dependent ? { dependent } : {}),
      connection,
    },
  };
}
