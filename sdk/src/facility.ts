// The resources of one facility: residents, coverage, observations and allergies.
import type { Client } from 'openapi-fetch';
import { assertId } from './arguments.js';
import type { AllergyIntolerance, Coverage, Observation, Patient } from './contract-types.js';
import type { paths } from './generated/openapi.js';
import { type CallOptions, type Page, PagedList, type PageOptions } from './pagination.js';
import { ChangeFeed, type ChangedSinceOptions, type Versioned } from './change-feed.js';
import { pageOf, envelopeData } from './response-data.js';

export interface ResidentFilter {
  /** Only the records of this resident (Patient id). */
  residentId?: string | undefined;
}

/** A list operation plus the read of one item by id, and incremental sync. */
export class ResourceCollection<T, Filter extends object = {}> extends PagedList<T, Filter> {
  constructor(
    private readonly listPageOf: (options: Filter & PageOptions) => Promise<Page<T>>,
    private readonly read: (id: string, options: CallOptions) => Promise<T>,
  ) {
    super(listPageOf);
  }

  /**
   * Every record changed after `since` (created, updated, discharged...), oldest change
   * first, each at its newest version. Iterate it, then store `feed.mark` and resume
   * later with `changedSince(feed.mark)`: that sees exactly the changes after the mark.
   */
  changedSince(since: Date | string, options?: Filter & ChangedSinceOptions): ChangeFeed<T & Versioned> {
    const filter = (options ?? {}) as Filter & ChangedSinceOptions;
    return new ChangeFeed<T & Versioned>((page) => this.listPageOf({ ...filter, ...page }) as Promise<Page<T & Versioned>>, since, filter);
  }

  /** One item by id; NotFoundError when this facility has no such item. */
  async get(id: string, options?: CallOptions): Promise<T> {
    assertId(id, 'id');
    return this.read(id, options ?? {});
  }
}

export interface FacilityClient {
  readonly orgId: string;
  readonly facilityId: string;
  /** Residents as FHIR Patient (scope residents.read). */
  readonly residents: ResourceCollection<Patient>;
  /** Payer coverage as FHIR Coverage, eligibility in `status` (scope coverage.read). */
  readonly coverage: ResourceCollection<Coverage, ResidentFilter>;
  /** Vitals, weights and results as FHIR Observation (scope clinical.read). */
  readonly observations: ResourceCollection<Observation, ResidentFilter>;
  /** Allergies as FHIR AllergyIntolerance (scope clinical.read). */
  readonly allergies: ResourceCollection<AllergyIntolerance, ResidentFilter>;
}

export function createFacilityClient(raw: Client<paths>, orgId: string, facilityId: string): FacilityClient {
  assertId(orgId, 'orgId');
  assertId(facilityId, 'facilityId');
  const path = { org_id: orgId, facility_id: facilityId };
  const query = ({ page, pageSize, residentId, lastUpdated, cursor }: PageOptions & ResidentFilter) => ({
    page,
    page_size: pageSize,
    resident_id: residentId,
    _lastUpdated: lastUpdated === undefined ? undefined : typeof lastUpdated === 'string' ? [lastUpdated] : lastUpdated,
    cursor,
  });

  return {
    orgId,
    facilityId,
    residents: new ResourceCollection<Patient>(
      ({ residentId: _unused, ...options }: PageOptions & ResidentFilter) =>
        pageOf(raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/residents', { params: { path, query: query(options) }, signal: options.signal })),
      (id, { signal }) =>
        envelopeData(raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/residents/{resident_id}', { params: { path: { ...path, resident_id: id } }, signal })),
    ),
    coverage: new ResourceCollection<Coverage, ResidentFilter>(
      (options) => pageOf(raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/coverage', { params: { path, query: query(options) }, signal: options.signal })),
      (id, { signal }) =>
        envelopeData(raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/coverage/{coverage_id}', { params: { path: { ...path, coverage_id: id } }, signal })),
    ),
    observations: new ResourceCollection<Observation, ResidentFilter>(
      (options) =>
        pageOf(raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation', { params: { path, query: query(options) }, signal: options.signal })),
      (id, { signal }) =>
        envelopeData(
          raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation/{resource_id}', { params: { path: { ...path, resource_id: id } }, signal }),
        ),
    ),
    allergies: new ResourceCollection<AllergyIntolerance, ResidentFilter>(
      (options) =>
        pageOf(
          raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance', { params: { path, query: query(options) }, signal: options.signal }),
        ),
      (id, { signal }) =>
        envelopeData(
          raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance/{resource_id}', {
            params: { path: { ...path, resource_id: id } },
            signal,
          }),
        ),
    ),
  };
}
