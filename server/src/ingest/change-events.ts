// The events a written change emits, queued in the same transaction as its rows
// (webhooks/event-outbox.ts); an identical re-send writes nothing and emits nothing.
//
// EVENT TABLE
//   Patient new and active, or active false -> true     resident.admitted
//   Patient active true -> false                         resident.discharged
//   Patient of the organization ingested under another   resident.transferred (one event; the row
//     facility                                            and its resources move facility)
//   Coverage new, or status/payor/period/subscriberId/   coverage.updated
//     order/type/class/relationship/subscriber changed
//   Condition new                                        clinical.condition.created
//   MedicationRequest or ServiceRequest new              clinical.order.created (data.order_type
//                                                          names which)
//   DiagnosticReport new, or its status changed          clinical.result.created (data names the
//                                                          report and its status)
//   Patient change that `replaces` another resident      resident.merged (data.merged_resident_id
//     (a merge: the prior one turns inactive, its          names the prior one)
//     records move to the surviving one)
//   Consent                                              none
//
// An event about a record carrying a restricted security label is marked restricted: only
// --sensitive credentials receive it (webhooks/event-outbox.ts).
import type { EventType } from '../db/event-types.js';
import type { QueuedEvent } from '../webhooks/event-outbox.js';
import type { ChangeSet, RecordType } from './change-set.js';
import type { Columns, ResourceMapping } from './mapping/resource-mapping.js';
import type { RecordRow } from './record-row.js';

/** The events of an update of `existing` to `columns` (`before`: its columns as they were); `moved`: a Patient ingested under another facility. */
export function eventsOfUpdate(mapping: ResourceMapping, existing: RecordRow, before: Columns, columns: Columns, moved: boolean, merging: boolean): EventType[] {
  let events: EventType[];
  if (mapping.type === 'Patient') {
    const wasActive = Boolean(existing.active);
    events = moved ? ['resident.transferred'] : !wasActive && columns.active === true ? ['resident.admitted'] : wasActive && columns.active === false ? ['resident.discharged'] : [];
  } else {
    events = mapping.events(before, columns);
  }
  if (merging) events = [...events, 'resident.merged'];
  return events;
}

/** The events of a new record. */
export function eventsOfCreation(mapping: ResourceMapping, columns: Columns, merging: boolean): EventType[] {
  let events: EventType[] = mapping.type === 'Patient' ? (columns.active === true ? ['resident.admitted'] : []) : mapping.events(undefined, columns);
  if (merging) events = [...events, 'resident.merged'];
  return events;
}

/** The events as queued for the outbox: about `row` (of `type`), at `now`; `merged`: the resident a merge replaced. */
export function queuedEvents(set: ChangeSet, facilityId: string, now: string, type: RecordType, row: RecordRow, events: EventType[], merged?: RecordRow): QueuedEvent[] {
  const queued: QueuedEvent[] = [];
  for (const event of events) {
    const residentId = type === 'Patient' ? row.id : (row.resident_id as string);
    const orderType = event === 'clinical.order.created' && (type === 'MedicationRequest' || type === 'ServiceRequest') ? type : undefined;
    const mergedResidentId = event === 'resident.merged' ? merged!.id : undefined;
    const report = event === 'clinical.result.created' ? { diagnosticReportId: row.id, diagnosticReportStatus: row.status as string } : {};
    const restricted = Number(row.restricted ?? 0) === 1;
    queued.push({ orgId: set.orgId, facilityId, type: event, residentId, occurredAt: now, ...(orderType ? { orderType } : {}), ...(mergedResidentId ? { mergedResidentId } : {}), ...report, ...(restricted ? { restricted } : {}) });
  }
  return queued;
}
