// The message browser's operations, on the message store's own functions (server/src/messages:
// listMessages, showMessage, reprocessMessages), each asked with the session's organization
// and the session as the viewer (their audit rows name `console:<session>` and the ids).
import { ApiError } from '../errors/api-error.js';
import { nowIso } from '../db/clock.js';
import { listFacilities } from '../organizations/organizations.js';
import { listMessages, showMessage } from '../messages/message-queries.js';
import { MessageNotFound, reprocessMessages } from '../messages/message-reprocess.js';
import type { MessageStatus, MessageViewer, ReprocessResult } from '../messages/message-types.js';
import { sourceFacilities } from '../config/mllp-source-facilities.js';
import { consoleClientId, type ConsoleHandler, type ConsoleRequest } from './console-requests.js';
import { csrfTokenOf } from './console-csrf.js';
import { MessageContent, MessagesContent, messagesQuery, type MessageFilters } from './views/messages-page.js';

/** Messages a page shows; older ones follow by the page's link. */
export const MESSAGES_SHOWN = 100;

function given(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function viewerOf({ app, session, requestId }: ConsoleRequest): MessageViewer {
  return { actor: consoleClientId(session.id), requestId, audit: app.audit };
}

/** `since`: a `datetime-local` value (read as UTC, as the label says) or an RFC 3339 date-time. */
export function instantOf(text: string, field: string, onBody = false): string {
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const at = local ? Date.parse(`${text}Z`) : /(Z|[+-]\d{2}:\d{2})$/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new ApiError(onBody ? 'invalid_body' : 'invalid_parameter', 'Give the time as a date and time (UTC).', [{ field, issue: 'must be a date-time' }]);
  return nowIso(at);
}

const consoleMessages: ConsoleHandler = async (request) => {
  const { app, session, query } = request;
  const filters: MessageFilters = { facility: given(query.facility), status: given(query.status), type: given(query.type), since: given(query.since), resident: given(query.resident) };
  const cursor = given(query.cursor);
  let page;
  try {
    page = await listMessages(
      app.db,
      {
        orgId: session.orgId,
        ...(filters.facility ? { facilityId: filters.facility } : {}),
        ...(filters.status ? { status: filters.status as MessageStatus } : {}),
        ...(filters.type ? { type: filters.type } : {}),
        ...(filters.since ? { since: instantOf(filters.since, 'query.since') } : {}),
        ...(filters.resident ? { residentId: filters.resident } : {}),
        ...(cursor ? { cursor } : {}),
        limit: MESSAGES_SHOWN,
      },
      viewerOf(request),
    );
  } catch (error) {
    // The store's word for a cursor it did not give.
    if (error instanceof RangeError) throw new ApiError('invalid_parameter', error.message, [{ field: 'query.cursor', issue: 'is not a cursor a list gave' }]);
    throw error;
  }
  const facilities = await listFacilities(app.db, session.orgId);
  const back = `/console/messages${messagesQuery(filters, cursor)}`;
  return {
    page: { title: 'Messages', nav: 'messages', content: <MessagesContent messages={page.messages} next={page.next} filters={filters} facilities={facilities} csrfToken={csrfTokenOf(session)} back={back} /> },
    resourceIds: page.messages.map((m) => m.id),
  };
};

const consoleMessage: ConsoleHandler = async (request) => {
  const { app, session, params, query } = request;
  const message = await showMessage(app.messages, params.message_id!, { raw: query.content === 'shown', orgId: session.orgId }, viewerOf(request));
  if (!message) throw new ApiError('not_found', 'No such message in this organization.');
  const facility = message.facility_id ? (await listFacilities(app.db, session.orgId)).find((f) => f.id === message.facility_id) : undefined;
  return {
    page: { title: `${message.message_type} ${message.control_id ?? ''}`.trim(), nav: 'messages', content: <MessageContent message={message} csrfToken={csrfTokenOf(session)} facilityName={facility?.name} /> },
    resourceIds: [message.id],
    facilityId: message.facility_id,
  };
};

function idsOf(value: unknown): string[] {
  const ids = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  return [...new Set(ids)];
}

/** Back to the page the form was on: a message browser path only (never another site). */
function backOf(value: unknown): string {
  return typeof value === 'string' && /^\/console\/messages(\/[0-9a-f-]{36})?(\?[^\s]*)?$/i.test(value) ? value : '/console/messages';
}

function lineOf(result: ReprocessResult): string {
  const what = result.status === 'duplicate' ? 'already applied, nothing run again' : result.status.replace(/_/g, ' ');
  const resident = result.resident_id ? `; resident ${result.resident_id}` : '';
  const reason = result.reason && result.status !== 'duplicate' ? `: ${result.reason}` : '';
  return `Message ${result.message_id}: ${what} (${result.answer_code})${reason}${resident}.`;
}

const consoleReprocessMessages: ConsoleHandler = async (request) => {
  const { app, session, form } = request;
  const ids = idsOf(form.message_id);
  const back = backOf(form.back);
  const bound = sourceFacilities(app.config.mllp?.sourceFacilities ?? []);
  try {
    const results = await reprocessMessages(
      { store: app.messages, boundFacility: (peer) => (peer ? bound(peer) : undefined), onError: (error) => app.logger.error({ err: error.message }, 'a reprocessed message failed on its road') },
      { ids, orgId: session.orgId },
      viewerOf(request),
    );
    app.webhooks.wake();
    return { redirect: back, flash: results.map(lineOf).join('\n'), resourceIds: results.flatMap((r) => [r.message_id, ...(r.outcome_id ? [r.outcome_id] : [])]) };
  } catch (error) {
    if (error instanceof MessageNotFound) throw new ApiError('not_found', `No message ${error.id} in this organization.`);
    // The store's refusals in words (a message whose content was not kept, or with no facility to apply it to).
    if (error instanceof Error && error.constructor === Error && /^message /.test(error.message)) return { redirect: back, flash: `Not reprocessed: ${error.message}.`, resourceIds: ids };
    throw error;
  }
};

export const consoleMessageHandlers: Record<string, ConsoleHandler> = { consoleMessages, consoleMessage, consoleReprocessMessages };
