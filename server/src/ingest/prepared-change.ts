// A change checked and mapped before anything is read: its mapping, its row's columns (with
// its security labels), or the issue that rejects it. A change matched by nothing but carrying
// an identifier its mapping matches on is matched on that identifier.
import { isUuid } from '../db/uuid.js';
import { holdsNul } from '../db/storable-text.js';
import type { BusinessIdentifier, ChangeIssue, RecordType, ResourceChange } from './change-set.js';
import { MAPPINGS } from './mapping/index.js';
import { identifiers as identifiersOf, mapped, text, MappingIssue, type Columns, type ResourceMapping } from './mapping/resource-mapping.js';
import { securityColumns } from './security-labels.js';

export interface Prepared {
  index: number;
  change: ResourceChange;
  mapping?: ResourceMapping;
  columns?: Columns;
  issue?: ChangeIssue;
}

export function prepare(change: ResourceChange, index: number): Prepared {
  const resource = change.resource as Record<string, unknown> | undefined;
  const mapping = resource ? MAPPINGS[resource.resourceType as RecordType] : undefined;
  if (!mapping || !Object.hasOwn(MAPPINGS, resource!.resourceType as string)) {
    return { index, change, issue: { code: 'not-supported', diagnostics: `resourceType ${JSON.stringify(resource?.resourceType ?? null)} cannot be ingested; send one of ${Object.keys(MAPPINGS).join(', ')}`, expression: ['resourceType'] } };
  }
  // PostgreSQL text cannot hold NUL; no FHIR string may contain one anyway.
  if (holdsNul(resource)) {
    return { index, change, mapping, issue: { code: 'value', diagnostics: 'FHIR strings may not contain the NUL character', expression: [mapping.type] } };
  }
  const match = change.match;
  if (match && 'id' in match && !isUuid(match.id)) {
    return { index, change, mapping, issue: { code: 'not-found', diagnostics: `no ${mapping.type} with id ${JSON.stringify(match.id)}: ofctx ids are UUIDs`, expression: [mapping.type] } };
  }
  if (match && 'identifier' in match) {
    const { system, value } = match.identifier;
    if (!text(system) || !text(value) || system.length > 300 || value.length > 300) {
      return { index, change, mapping, issue: { code: 'value', diagnostics: 'the matching identifier needs a system and a value of at most 300 characters', expression: [`${mapping.type}.identifier`] } };
    }
  }
  if (change.ifMatch !== undefined) {
    if (!Number.isSafeInteger(change.ifMatch) || change.ifMatch < 1) {
      return { index, change, mapping, issue: { code: 'value', diagnostics: `ifMatch must be a versionId (a positive integer); got ${JSON.stringify(change.ifMatch)}`, expression: [mapping.type] } };
    }
    if (change.createOnly) {
      return { index, change, mapping, issue: { code: 'not-supported', diagnostics: 'ifMatch applies to updates; a create-only change (ifNoneExist) has no version to match', expression: [mapping.type] } };
    }
  }
  const mappedColumns = mapping.toColumns(change.resource);
  if ('issue' in mappedColumns) return { index, change, mapping, issue: mappedColumns.issue };
  const security = mapped(() => ({ ...securityColumns(change.resource as Record<string, unknown>) }));
  if ('issue' in security) return { index, change, mapping, issue: security.issue };
  if (mapping.matchOwnIdentifier && !change.match) {
    let own: BusinessIdentifier[] = [];
    try {
      own = identifiersOf(change.resource as Record<string, unknown>);
    } catch (error) {
      if (error instanceof MappingIssue) return { index, change, mapping, issue: error.issue };
      throw error;
    }
    if (own[0]) change = { ...change, match: { identifier: own[0] } };
  }
  return { index, change, mapping, columns: { ...mappedColumns.columns, ...security.columns } };
}
