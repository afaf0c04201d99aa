// List and read handlers of the four FHIR resources. Every query is filtered by the path's
// organization and facility (already authorized), so another tenant's row is a 404.
import { ApiError } from '../errors/api-error.js';
import { list, single } from '../http/envelope.js';
import type { OperationHandler, OperationRequest } from '../http/operation.js';
import { facilityScope, fetchResourcePage } from './pagination.js';
import { toPatient, type ResidentRow } from './fhir-patient.js';
import { toCoverage, type CoverageRow } from './fhir-coverage.js';
import { toObservation, type ObservationRow } from './fhir-observation.js';
import { toAllergyIntolerance, type AllergyRow } from './fhir-allergy-intolerance.js';

function listOf<Row extends { id: string; seq: number }>(table: string, map: (row: Row) => unknown): OperationHandler {
  return async ({ app, params, query }: OperationRequest) => {
    const { rows, page } = await fetchResourcePage<Row>(app.db, table, facilityScope(params, query), query);
    return { body: list(rows.map(map), page), audit: { resourceIds: rows.map((row) => row.id) } };
  };
}

function readOf<Row extends { id: string }>(table: string, idParam: string, map: (row: Row) => unknown): OperationHandler {
  return async ({ app, params }: OperationRequest) => {
    const row = (await app.db(table)
      .where({ id: params[idParam], org_id: params.org_id, facility_id: params.facility_id })
      .first()) as Row | undefined;
    if (!row) throw new ApiError('not_found');
    return { body: single(map(row)), audit: { resourceIds: [row.id] } };
  };
}

export const resourceOperations: Record<string, OperationHandler> = {
  listResidents: listOf<ResidentRow>('residents', toPatient),
  getResident: readOf<ResidentRow>('residents', 'resident_id', toPatient),
  listCoverage: listOf<CoverageRow>('coverage', toCoverage),
  getCoverage: readOf<CoverageRow>('coverage', 'coverage_id', toCoverage),
  listObservations: listOf<ObservationRow>('observations', toObservation),
  getObservation: readOf<ObservationRow>('observations', 'resource_id', toObservation),
  listAllergies: listOf<AllergyRow>('allergies', toAllergyIntolerance),
  getAllergy: readOf<AllergyRow>('allergies', 'resource_id', toAllergyIntolerance),
};
