// HL7's snapshot rule for the lists an ADT message carries (AL1, DG1, IN1): the items this
// sender listed before for the resident and no longer lists, each as the FHIR change that
// turns it inactive (allergy and condition clinicalStatus `inactive`, Coverage `cancelled`).
// Nothing is deleted: partners sync the status change like any other. Items of other sources
// (a FHIR feed, another sender) are not this sender's list and are left alone.
import type { Knex } from 'knex';
import { identifierRowsOfRecords } from '../db/identifier-rows.js';
import type { IngestResource } from '../ingest/change-set.js';
import type { ListType } from './message-translator.js';

const TABLES: Record<ListType, string> = { Coverage: 'coverage', AllergyIntolerance: 'allergies', Condition: 'conditions' };

type Row = Record<string, unknown> & { id: string };

function inactive(type: ListType, row: Row, identifier: Array<{ system: string; value: string }>, resident: string): IngestResource | undefined {
  const patient = { reference: `Patient/${resident}` };
  const code = { coding: [{ system: row.code_system as string, code: row.code as string, display: row.display as string }] };
  if (type === 'Coverage') {
    if (row.status === 'cancelled') return undefined;
    return {
      resourceType: 'Coverage',
      identifier,
      status: 'cancelled',
      beneficiary: patient,
      payor: [{ ...(row.payor_id ? { identifier: { value: row.payor_id } } : {}), display: row.payor_name }],
      subscriberId: row.subscriber_id,
      period: { start: row.period_start, ...(row.period_end ? { end: row.period_end } : {}) },
      order: Number(row.coverage_order),
    };
  }
  if (row.clinical_status === 'inactive' || row.clinical_status === 'resolved') return undefined;
  if (type === 'AllergyIntolerance') {
    return {
      resourceType: 'AllergyIntolerance',
      identifier,
      clinicalStatus: 'inactive',
      ...(row.category ? { category: [row.category] } : {}),
      ...(row.criticality ? { criticality: row.criticality } : {}),
      code,
      patient,
      ...(row.reactions ? { reaction: JSON.parse(row.reactions as string) as unknown[] } : {}),
    };
  }
  return { resourceType: 'Condition', identifier, clinicalStatus: 'inactive', code, subject: patient, ...(row.onset ? { onsetDateTime: row.onset } : {}) };
}

/**
 * The sender's items of `type` for the resident (an identifier under `system`) that are not in
 * `listed` ("Type|system|value" of what the message lists) and not inactive already.
 */
export async function listItemsNoLongerListed(trx: Knex.Transaction, orgId: string, residentId: string, type: ListType, system: string, listed: ReadonlySet<string>): Promise<Array<{ id: string; resource: IngestResource }>> {
  const table = TABLES[type];
  const rows = (await trx(table).where({ org_id: orgId, resident_id: residentId })) as Row[];
  if (rows.length === 0) return [];
  const identifiers = await identifierRowsOfRecords(trx, orgId, type, rows.map((r) => r.id as string));
  const ofSender = (s: string) => s === system || s.startsWith(`${system}:`);
  const changes: Array<{ id: string; resource: IngestResource }> = [];
  for (const row of rows) {
    const own = identifiers.filter((i) => i.resource_id === row.id).map(({ system: s, value }) => ({ system: s, value }));
    if (!own.some((i) => ofSender(i.system))) continue;
    if (own.some((i) => listed.has(`${type}|${i.system}|${i.value}`))) continue;
    const resource = inactive(type, row, own, residentId);
    if (resource) changes.push({ id: row.id, resource });
  }
  return changes;
}
