// A FHIR R4 Bundle of type `transaction` or `batch` -> a ChangeSet, and the ChangeSetResult
// -> the `transaction-response` / `batch-response` Bundle. Entries are upserts the FHIR way:
//   PUT  Type?identifier=SYSTEM|VALUE   conditional update (created when nothing matches)
//   PUT  Type/<ofctx id>                update of a known record
//   POST Type  (+ ifNoneExist: identifier=SYSTEM|VALUE)   create, or leave the match as it is
// References between entries by `urn:uuid:` fullUrl are resolved by applyChangeSet.
// A PUT may carry `request.ifMatch` (the ETag of the version the sender read): the entry is
// applied only if the record is still at that version, else it fails 412 Precondition Failed.
import { ApiError } from '../errors/api-error.js';
import { INGESTIBLE_TYPES, type ChangeIssue, type ChangeOutcome, type ChangeSet, type ChangeSetResult, type IngestResource, type IngestibleType, type ResourceChange } from './change-set.js';
import { parseIdentifierQuery } from './business-identifiers.js';
import { fhirIssues } from './fhir-validator.js';
import { outcomeOf, type OperationOutcome } from '../errors/operation-outcome.js';
import { issueAt } from './change-issue-outcome.js';

export type BundleType = 'transaction' | 'batch';

export interface BundleTranslation {
  type: BundleType;
  entries: number;
  changeSet: ChangeSet;
  /** The Bundle entry of each change of the set. */
  entryOf: number[];
  /** Entries refused before applying: not FHIR R4, or not an upsert we can perform. */
  refused: Map<number, ChangeIssue>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * FHIR `Bundle.entry.request.ifMatch`: the ETag of the version the sender read, `W/"3"` (as
 * answered in `response.etag`) or `"3"`; bare digits are taken too.
 */
function parseIfMatch(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const digits = /^\s*(?:(?:W\/)?"(\d{1,15})"|(\d{1,15}))\s*$/.exec(value);
  const version = digits ? Number(digits[1] ?? digits[2]) : NaN;
  return Number.isSafeInteger(version) && version >= 1 ? version : undefined;
}

function entryChange(entry: unknown, at: string): ResourceChange | ChangeIssue {
  if (!isObject(entry)) return { code: 'structure', diagnostics: 'each entry must be an object', expression: [at] };
  const resource = entry.resource;
  if (!isObject(resource)) return { code: 'required', diagnostics: 'the entry has no resource', expression: [`${at}.resource`] };
  const type = resource.resourceType;
  if (typeof type !== 'string' || !(INGESTIBLE_TYPES as readonly string[]).includes(type)) {
    return { code: 'not-supported', diagnostics: `resourceType ${JSON.stringify(type ?? null)} cannot be ingested; send one of ${INGESTIBLE_TYPES.join(', ')}`, expression: [`${at}.resource.resourceType`] };
  }
  const request = entry.request;
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string') {
    return { code: 'required', diagnostics: 'a transaction or batch entry needs request.method and request.url', expression: [`${at}.request`] };
  }
  const fullUrl = typeof entry.fullUrl === 'string' ? entry.fullUrl : undefined;
  const base = { resource: resource as IngestResource, at, ...(fullUrl ? { fullUrl } : {}) };
  const url = request.url.replace(/^\//, '');
  let ifMatch: number | undefined;
  if (request.ifMatch !== undefined) {
    if (request.method !== 'PUT') return { code: 'not-supported', diagnostics: 'ifMatch applies to updates (PUT); a POST creates, so there is no version to match', expression: [`${at}.request.ifMatch`] };
    ifMatch = parseIfMatch(request.ifMatch);
    if (ifMatch === undefined) return { code: 'value', diagnostics: `ifMatch must be the ETag of a version, W/"<versionId>" (as answered in response.etag); got ${JSON.stringify(request.ifMatch)}`, expression: [`${at}.request.ifMatch`] };
  }
  if (request.method === 'PUT') {
    const conditional = new RegExp(`^${type}\\?(.*)$`).exec(url);
    if (conditional) {
      const identifier = parseIdentifierQuery(conditional[1]!);
      if (!identifier) return { code: 'not-supported', diagnostics: `conditional update must be ${type}?identifier=SYSTEM|VALUE`, expression: [`${at}.request.url`] };
      return { ...base, match: { identifier }, ...(ifMatch ? { ifMatch } : {}) };
    }
    const byId = new RegExp(`^${type}/([^/?]+)$`).exec(url);
    if (byId) return { ...base, match: { id: byId[1]!.toLowerCase() }, ...(ifMatch ? { ifMatch } : {}) };
    return { code: 'value', diagnostics: `request.url must be ${type}?identifier=SYSTEM|VALUE or ${type}/<id> for this ${type}`, expression: [`${at}.request.url`] };
  }
  if (request.method === 'POST') {
    if (url !== type) return { code: 'value', diagnostics: `request.url of a POST must be ${type}`, expression: [`${at}.request.url`] };
    if (request.ifNoneExist === undefined) return base;
    const identifier = typeof request.ifNoneExist === 'string' ? parseIdentifierQuery(request.ifNoneExist) : undefined;
    if (!identifier) return { code: 'not-supported', diagnostics: 'ifNoneExist must be identifier=SYSTEM|VALUE', expression: [`${at}.request.ifNoneExist`] };
    return { ...base, match: { identifier }, createOnly: true };
  }
  return { code: 'not-supported', diagnostics: `request.method ${JSON.stringify(request.method)} is not supported: use PUT (conditional update) or POST`, expression: [`${at}.request.method`] };
}

/** Throws ApiError `invalid_fhir` when the body is not a transaction or batch Bundle at all. */
export async function translateBundle(body: unknown, target: Omit<ChangeSet, 'mode' | 'changes'>): Promise<BundleTranslation> {
  if (!isObject(body) || body.resourceType !== 'Bundle') {
    throw new ApiError('invalid_fhir', 'The body must be a FHIR R4 Bundle (resourceType "Bundle").', [{ field: 'Bundle.resourceType', issue: 'must be Bundle' }]);
  }
  if (body.type !== 'transaction' && body.type !== 'batch') {
    throw new ApiError('invalid_fhir', 'Bundle.type must be "transaction" (all or nothing) or "batch" (entry by entry).', [{ field: 'Bundle.type', issue: 'must be transaction or batch' }]);
  }
  const entries = body.entry ?? [];
  if (!Array.isArray(entries)) throw new ApiError('invalid_fhir', 'Bundle.entry must be an array.', [{ field: 'Bundle.entry', issue: 'must be an array' }]);
  const changes: ResourceChange[] = [];
  const entryOf: number[] = [];
  const refused = new Map<number, ChangeIssue>();
  for (let index = 0; index < entries.length; index++) {
    const at = `Bundle.entry[${index}]`;
    const change = entryChange(entries[index], at);
    if (!('resource' in change)) {
      refused.set(index, change);
      continue;
    }
    const [problem] = await fhirIssues(change.resource as { resourceType: IngestibleType });
    if (problem) {
      refused.set(index, problem);
      continue;
    }
    changes.push(change);
    entryOf.push(index);
  }
  return { type: body.type, entries: entries.length, changeSet: { ...target, mode: body.type, changes }, entryOf, refused };
}

const FAILURE_STATUS: Partial<Record<ChangeIssue['code'], string>> = {
  'not-found': '404 Not Found',
  conflict: '409 Conflict',
  forbidden: '403 Forbidden',
};

function failureOf(at: string, issue: ChangeIssue, structural: boolean) {
  return {
    response: {
      status: structural ? '400 Bad Request' : issue.versionConflict ? '412 Precondition Failed' : (FAILURE_STATUS[issue.code] ?? '422 Unprocessable Entity'),
      outcome: outcomeOf([issueAt(at, issue)]),
    },
  };
}

function successOf(outcome: Exclude<ChangeOutcome, { outcome: 'rejected' }>) {
  return {
    response: {
      status: outcome.outcome === 'created' ? '201 Created' : '200 OK',
      location: `${outcome.resourceType}/${outcome.id}`,
      etag: `W/"${outcome.versionId}"`,
      lastModified: outcome.lastUpdated,
    },
  };
}

/**
 * The issues of a refused transaction: every entry that failed, none of the innocent ones.
 * `preconditionFailed`: every failure is a stale ifMatch (answered 412; any other failure
 * makes it 422, since sending it again after a fresh read would still fail).
 */
export function refusedTransaction(translation: BundleTranslation, result: ChangeSetResult | undefined): { structural: boolean; preconditionFailed: boolean; outcome: OperationOutcome } {
  const issues: OperationOutcome['issue'] = [];
  let preconditionFailed = translation.refused.size === 0;
  for (const [index, issue] of translation.refused) issues.push(issueAt(`Bundle.entry[${index}]`, issue));
  result?.outcomes.forEach((outcome) => {
    if (outcome.outcome !== 'rejected' || outcome.refused) return;
    issues.push(issueAt(outcome.at, outcome.issue));
    if (!outcome.issue.versionConflict) preconditionFailed = false;
  });
  return { structural: translation.refused.size > 0, preconditionFailed: preconditionFailed && issues.length > 0, outcome: outcomeOf(issues) };
}

export function responseBundle(translation: BundleTranslation, result: ChangeSetResult) {
  const entries: unknown[] = new Array(translation.entries);
  for (const [index, issue] of translation.refused) entries[index] = failureOf(`Bundle.entry[${index}]`, issue, true);
  result.outcomes.forEach((outcome, i) => {
    const index = translation.entryOf[i]!;
    entries[index] = outcome.outcome === 'rejected' ? failureOf(outcome.at, outcome.issue, false) : successOf(outcome);
  });
  return { resourceType: 'Bundle', type: `${translation.type}-response`, entry: entries };
}
