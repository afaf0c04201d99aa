// List and read handlers of the four FHIR resources. Every query is filtered by the path's
// organization and facility (already authorized) and by the caller's access policy, so
// another tenant's row, or one the policy hides, is a 404.
// Reads and lists carry a weak ETag and answer 304 to a matching If-None-Match.
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import { listText, single } from '../http/envelope.js';
import type { OperationHandler, OperationRequest } from '../app-context.js';
import { conditionalGet, renderedDigestTag, versionTag } from '../http/conditional-get.js';
import { RenderedJson } from '../http/rendered-json.js';
import { RenderedRows } from '../http/rendered-rows.js';
import { RenderedPages, type PageAnswer } from '../http/rendered-pages.js';
import type { PageInfo } from '../http/envelope.js';
import { facilityScope } from './pagination.js';
import { isSyncRequest } from './sync-pages.js';
import { listRows, readRow, rowsBySeq } from './resource-rows.js';
import type { ResourceRow } from '../db/resource-row.js';
import { toPatient, type ResidentRow } from './fhir-patient.js';
import { toCoverage, type CoverageRow } from './fhir-coverage.js';
import { toObservation, type ObservationRow } from './fhir-observation.js';
import { toAllergyIntolerance, type AllergyRow } from './fhir-allergy-intolerance.js';
import { visibilityAndStampOf, visibilityOf } from '../tenancy/authorize.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';
import { disclosuresOf } from '../audit/disclosures.js';
// The tenancy rules read granular scopes' types through it (tenancy/restrictable-types.ts).
import './r4/search/restrictable-r4-types.js';

const FHIR_TYPE_OF_TABLE: Record<string, string> = { residents: 'Patient', coverage: 'Coverage', observations: 'Observation', allergies: 'AllergyIntolerance' };

/**
 * The rows a page read by their keys did not find rendered, read whole as they are now, in
 * the page's order; one moved or hidden since the page's read is left out, with its text.
 */
async function withWholeRows<Row extends ResourceRow>(
  db: Knex,
  table: string,
  facilityId: string,
  filter: RecordFilter,
  rendered: RenderedRows<Row>,
  page: { rows: Row[]; texts: Array<string | undefined> },
  unkept: number[],
): Promise<{ rows: Row[]; texts: string[] }> {
  const { rows, texts } = page;
  const whole = new Map<string, Row>();
  for (const row of await rowsBySeq<Row>(db, table, facilityId, unkept.map((i) => rows[i]!.seq), filter)) whole.set(String(row.seq), row);
  for (const i of unkept) {
    const row = whole.get(String(rows[i]!.seq));
    if (row === undefined) continue;
    rows[i] = row;
    texts[i] = rendered.jsonOf(row);
  }
  if (whole.size === unkept.length) return { rows, texts: texts as string[] };
  return { rows: rows.filter((_, i) => texts[i] !== undefined), texts: texts.filter((text): text is string => text !== undefined) };
}

function listOf<Row extends ResourceRow>(table: string, map: (row: Row) => unknown): OperationHandler {
  const rendered = new RenderedRows(map);
  const pages = new RenderedPages();
  return async (request: OperationRequest) => {
    const { app, params, query } = request;
    const scope = facilityScope(params, query);
    // Who may see what, and the stamp of the facility's rows, in one statement.
    const visibility = await visibilityAndStampOf(app.db, request.principal, table, scope.facility_id);
    const filter = visibility.filter;
    // The page this credential asked for last time (http/rendered-pages.ts): kept under what
    // selects it, and what the policy hides.
    const pageKey = `${request.principal.clientId} ${scope.facility_id} ${filter.payersOnly?.join('\n') ?? ''} ${filter.granular?.key ?? ''} ${request.koa.querystring}`;
    // Unchanged if its facility's rows are, where they alone decide the page.
    const stamp = dependsOnRowsAlone(table, filter, query) ? visibility.stamp : undefined;
    let answer = stamp === undefined ? undefined : pages.answerOfStamp(pageKey, stamp);
    if (answer === undefined) {
      // Only the rows' keys while their texts are mostly kept (http/rendered-rows.ts).
      const listed = await listRows<Row>(app.db, table, scope, query, filter, rendered.mostlyKept ? 'keys' : 'all');
      // Unchanged if it holds these very rows.
      answer = pages.answerOf(pageKey, listed.rows, listed.page, stamp);
      if (answer !== undefined) rendered.notePage(listed.rows.length, listed.rows.length);
      else {
        const built = await answerOfRows(app.db, table, scope.facility_id, filter, rendered, listed);
        answer = built.answer;
        if (built.ofListedRows) pages.keep(pageKey, listed.rows, listed.page, answer, stamp);
      }
    }
    return conditionalGet(request, answer.etag, { body: answer.body, audit: { resourceIds: answer.resourceIds, disclosures: answer.disclosures } });
  };
}

/**
 * Whether a page-numbered list of `table` shows exactly a function of its facility's rows
 * under this filter: nothing hidden, or (Coverage) payers alone, which a Coverage's own
 * columns decide. Consents (their own table, their periods against the clock) and labels
 * weighed by the policy are not; neither are the sync's pages (bounded by time).
 */
function dependsOnRowsAlone(table: string, filter: RecordFilter, query: Record<string, unknown>): boolean {
  if (isSyncRequest(query)) return false;
  return filter.isEmpty || (table === 'coverage' && filter.payersOnly !== null);
}

/**
 * A page's answer, built from its rows: their texts kept or rendered, read whole where only
 * their keys were read; `ofListedRows` when it is exactly the rows listed (none read again,
 * which may have changed or gone since).
 */
async function answerOfRows<Row extends ResourceRow>(
  db: Knex,
  table: string,
  facilityId: string,
  filter: RecordFilter,
  rendered: RenderedRows<Row>,
  listed: { rows: Row[]; page: PageInfo; keysOnly: boolean },
): Promise<{ answer: PageAnswer; ofListedRows: boolean }> {
  const texts = new Array<string | undefined>(listed.rows.length);
  let kept = 0;
  let unkept: number[] | undefined;
  for (let i = 0; i < listed.rows.length; i++) {
    const row = listed.rows[i]!;
    const text = rendered.keptJsonOf(row);
    if (text !== undefined) {
      texts[i] = text;
      kept++;
    } else if (listed.keysOnly) (unkept ??= []).push(i);
    else texts[i] = rendered.jsonOf(row);
  }
  rendered.notePage(kept, listed.rows.length);
  const { rows, texts: shown } =
    unkept === undefined ? { rows: listed.rows, texts: texts as string[] } : await withWholeRows(db, table, facilityId, filter, rendered, { rows: listed.rows, texts }, unkept);
  // Serialized once, each row once per version: the ETag is a digest of the very bytes sent.
  const body = RenderedJson.ofText(listText(shown, listed.page));
  const answer = {
    body,
    etag: renderedDigestTag(body),
    resourceIds: rows.map((row) => row.id),
    disclosures: disclosuresOf(FHIR_TYPE_OF_TABLE[table]!, rows as Array<Row & { resident_id?: string }>),
  };
  return { answer, ofListedRows: unkept === undefined };
}

function readOf<Row extends ResourceRow>(table: string, idParam: string, map: (row: Row) => unknown): OperationHandler {
  return async (request: OperationRequest) => {
    const row = await readRow<Row>(request.app.db, table, request.params, request.params[idParam]!, await visibilityOf(request.app.db, request.principal));
    if (!row) throw new ApiError('not_found');
    return conditionalGet(request, versionTag(row.version_id), {
      body: single(map(row)),
      audit: { resourceIds: [row.id], disclosures: disclosuresOf(FHIR_TYPE_OF_TABLE[table]!, [row as Row & { resident_id?: string }]) },
    });
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
