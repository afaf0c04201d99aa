// Finding messages: the list (filters as `ops messages list` and the console's browser give
// them, newest first, by keyset on received_at and seq) and one message in full. Metadata only,
// unless the content is asked for (PHI). Every list and show is in the audit trail: who
// (the viewer), which organization, which message ids.
import type { Knex } from 'knex';
import type { MessageStore } from './message-store.js';
import { MESSAGE_STATUSES, type ChangedRecord, type MessageAnswer, type MessageDetail, type MessageFilter, type MessagePage, type MessageSummary, type MessageViewer } from './message-types.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const SUMMARY_COLUMNS = ['seq', 'id', 'received_at', 'org_id', 'facility_id', 'road', 'format', 'source_client_id', 'source_peer', 'sending_application', 'sending_facility', 'message_type', 'control_id', 'size_bytes', 'status', 'current_status', 'answer_code', 'reason', 'resident_id', 'reprocess_of', 'reprocessed_by', 'content_stored'];

type Row = Record<string, unknown>;

/** A selection with content_stored (whether the content is still there) instead of the content. */
const selectSummary = (db: Knex, q: Knex.QueryBuilder) =>
  q.select(...SUMMARY_COLUMNS.filter((c) => c !== 'content_stored'), db.raw('case when content_encrypted is null then 0 else 1 end as content_stored'));

function summaryOf(row: Row): MessageSummary {
  return {
    id: row.id as string,
    received_at: row.received_at as string,
    org_id: (row.org_id as string | null) ?? null,
    facility_id: (row.facility_id as string | null) ?? null,
    road: row.road as MessageSummary['road'],
    format: row.format as MessageSummary['format'],
    source: {
      client_id: (row.source_client_id as string | null) ?? null,
      peer: (row.source_peer as string | null) ?? null,
      sending_application: (row.sending_application as string | null) ?? null,
      sending_facility: (row.sending_facility as string | null) ?? null,
    },
    message_type: row.message_type as string,
    control_id: (row.control_id as string | null) ?? null,
    size_bytes: Number(row.size_bytes),
    status: row.status as MessageSummary['status'],
    current_status: row.current_status as MessageSummary['current_status'],
    answer_code: row.answer_code as string,
    reason: (row.reason as string | null) ?? null,
    resident_id: (row.resident_id as string | null) ?? null,
    reprocess_of: (row.reprocess_of as string | null) ?? null,
    reprocessed_by: (row.reprocessed_by as string | null) ?? null,
    has_content: Number(row.content_stored) === 1,
  };
}

const answerOf = (row: Row): MessageAnswer => (row.answer ? (JSON.parse(row.answer as string) as MessageAnswer) : { code: row.answer_code as string, errors: [] });
const recordsOf = (row: Row): ChangedRecord[] => (row.records ? (JSON.parse(row.records as string) as ChangedRecord[]) : []);

/** `next` of a page: the last row's received_at and seq. */
const cursorOf = (row: Row) => Buffer.from(JSON.stringify([row.received_at, Number(row.seq)])).toString('base64url');

function readCursor(cursor: string): [string, number] {
  try {
    const [at, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at === 'string' && Number.isInteger(seq)) return [at, seq as number];
  } catch {
    // fall through
  }
  throw new RangeError('the cursor is not one a list gave; start from the first page');
}

/** The messages received (not the reprocess outcome rows: they are shown with their message). */
export function messageQuery(db: Knex, filter: MessageFilter): Knex.QueryBuilder {
  let q = db('inbound_messages').whereNull('reprocess_of');
  q = filter.orgId === null ? q.whereNull('org_id') : q.where('org_id', filter.orgId);
  if (filter.facilityId) q = q.where('facility_id', filter.facilityId);
  if (filter.status) {
    if (!(MESSAGE_STATUSES as readonly string[]).includes(filter.status)) throw new RangeError(`status must be one of ${MESSAGE_STATUSES.join(', ')}`);
    q = q.where('current_status', filter.status);
  }
  // ADT^A01 is that event; ADT every ADT event.
  if (filter.type) q = filter.type.includes('^') ? q.where('message_type', filter.type) : q.where((w) => w.where('message_type', filter.type!).orWhere('message_type', 'like', `${filter.type!.replace(/[%_]/g, '')}^%`));
  if (filter.since) q = q.where('received_at', '>=', filter.since);
  if (filter.until) q = q.where('received_at', '<', filter.until);
  if (filter.road) q = q.where('road', filter.road);
  if (filter.residentId) {
    const residentId = filter.residentId;
    // The message about the resident, or one a reprocess of which was.
    q = q.where((w) => w.where('resident_id', residentId).orWhereIn('id', db('inbound_messages').select('reprocess_of').where('resident_id', residentId).whereNotNull('reprocess_of')));
  }
  return q;
}

/** A page of messages, newest first; audited. */
export async function listMessages(db: Knex, filter: MessageFilter, viewer: MessageViewer): Promise<MessagePage> {
  const limit = Math.min(Math.max(filter.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  let q = messageQuery(db, filter);
  if (filter.cursor) {
    const [at, seq] = readCursor(filter.cursor);
    q = q.where((w) => w.where('received_at', '<', at).orWhere((x) => x.where('received_at', at).where('seq', '<', seq)));
  }
  const rows = (await selectSummary(db, q).orderBy([{ column: 'received_at', order: 'desc' }, { column: 'seq', order: 'desc' }]).limit(limit + 1)) as Row[];
  const page = rows.slice(0, limit);
  const messages = page.map(summaryOf);
  await viewer.audit.record({ requestId: viewer.requestId, clientId: viewer.actor, orgId: filter.orgId, facilityId: filter.facilityId ?? null, operation: 'messages.list', status: 200, resourceIds: messages.map((m) => m.id) });
  return { messages, next: rows.length > limit ? cursorOf(page[page.length - 1]!) : null };
}

/** HL7 v2 text as segments of fields (MSH-1 kept as the separator, as HL7 counts it). */
function hl7Segments(text: string): string[][] {
  const t = text.replace(/^[\uFEFF\s]+/, '');
  const separator = t[3] ?? '|';
  return t
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = line.split(separator);
      return line.startsWith('MSH') ? [fields[0]!, separator, ...fields.slice(1)] : fields;
    });
}

function readContent(format: string, raw: string): { raw: string; segments?: string[][]; parsed?: unknown } {
  if (format === 'hl7v2') return { raw, segments: hl7Segments(raw) };
  if (format === 'x12-271') {
    const t = raw.trimStart();
    const element = t[3] ?? '*';
    const terminator = t.length > 105 ? t[105]! : '~';
    return { raw, segments: t.split(terminator).map((s) => s.replace(/^\s+/, '')).filter(Boolean).map((s) => s.split(element)) };
  }
  if (format === 'fhir-bundle') {
    try {
      return { raw, parsed: JSON.parse(raw) };
    } catch {
      return { raw };
    }
  }
  return { raw };
}

/**
 * One message: its metadata, answer, the records it changed and its reprocess outcomes; with
 * `raw`, its content too (PHI). `orgId` confines it to an organization (the console: its
 * session's); undefined only for the operator's CLI. Audited, content shown or not.
 */
export async function showMessage(store: MessageStore, id: string, options: { raw?: boolean; orgId?: string | null }, viewer: MessageViewer): Promise<MessageDetail | undefined> {
  const db = store.db;
  let q = db('inbound_messages').where('id', id);
  if (options.orgId !== undefined) q = options.orgId === null ? q.whereNull('org_id') : q.where('org_id', options.orgId);
  const row = (await selectSummary(db, q).select('answer', 'records', ...(options.raw ? ['content_encrypted'] : [])).first()) as Row | undefined;
  if (!row) return undefined;
  const outcomes = ((await selectSummary(db, db('inbound_messages').where('reprocess_of', id)).select('answer', 'records').orderBy('seq')) as Row[]).map((r) => ({ ...summaryOf(r), answer: answerOf(r), records: recordsOf(r) }));
  const detail: MessageDetail = { ...summaryOf(row), answer: answerOf(row), records: recordsOf(row), outcomes };
  if (options.raw) {
    const raw = store.content({ id: row.id as string, content_encrypted: (row.content_encrypted as string | null) ?? null });
    if (raw !== null) detail.content = readContent(row.format as string, raw);
  }
  await viewer.audit.record({
    requestId: viewer.requestId,
    clientId: viewer.actor,
    orgId: detail.org_id,
    facilityId: detail.facility_id,
    operation: options.raw ? 'messages.show_raw' : 'messages.show',
    status: 200,
    resourceIds: [detail.id, ...detail.records.map((r) => r.id)],
  });
  return detail;
}
