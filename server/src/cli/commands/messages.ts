// `messages list|show|reprocess`: the operator's way to find a message (what was received, from
// whom, how it was answered, what it changed) and to run refused ones again after a fix (a
// facility code registered, say). The functions are the message store's (server/src/messages),
// which the console calls too. Every call is in the audit trail under `ops-cli:<user>`.
// Content (PHI) is shown only by `show --raw`, never in a list.
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { Knex } from 'knex';
import { AuditTrail } from '../../audit/audit-trail.js';
import { isUuid } from '../../db/uuid.js';
import { sourceAddress } from '../../hl7/mllp-admission.js';
import { sourceFacilities } from '../../config/mllp-source-facilities.js';
import { listMessages, showMessage } from '../../messages/message-queries.js';
import { MessageNotFound, reprocessMessages, type ReprocessSelection } from '../../messages/message-reprocess.js';
import { MessageStore } from '../../messages/message-store.js';
import { MESSAGE_ROADS, MESSAGE_STATUSES, type MessageDetail, type MessageFilter, type MessagePage, type MessageRoad, type MessageStatus, type MessageSummary, type MessageViewer, type ReprocessResult } from '../../messages/message-types.js';
import { loadSigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { positiveInteger, uuidOption, UsageError, type CliContext, type Command, type ParsedArgs } from '../command.js';

function viewer(db: Knex): MessageViewer {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user name (a container without passwd entry)
  }
  return { actor: `ops-cli:${user}`.slice(0, 100), requestId: `ops-${randomUUID()}`, audit: new AuditTrail(db) };
}

async function messageStore(cli: CliContext): Promise<MessageStore> {
  const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
  return new MessageStore(await cli.db(), cipher);
}

/** An instant option: ISO 8601 (a date alone is its midnight UTC), or a duration back from now: 30m, 12h, 7d. */
function instantOption(args: ParsedArgs, name: string): string | undefined {
  const raw = args.values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw new UsageError(`--${name} needs a value`);
  const ago = /^(\d+)([mhd])$/.exec(raw.trim());
  if (ago) return new Date(Date.now() - Number(ago[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 'm' | 'h' | 'd']).toISOString();
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) throw new UsageError(`--${name} must be an ISO 8601 instant (2026-11-28T08:00:00Z), a date, or a duration back from now (30m, 12h, 7d); got "${raw}"`);
  return at.toISOString();
}

function statusOption(args: ParsedArgs): MessageStatus | undefined {
  const status = args.values.status as string | undefined;
  if (status !== undefined && !(MESSAGE_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${MESSAGE_STATUSES.join(', ')}; got "${status}"`);
  return status as MessageStatus | undefined;
}

function filterOf(args: ParsedArgs): MessageFilter {
  const unattributed = args.values.unattributed === true;
  if (unattributed && args.values.org !== undefined) throw new UsageError('give --org ORG or --unattributed, not both');
  if (!unattributed && args.values.org === undefined) throw new UsageError('--org is required (or --unattributed: MLLP messages no organization could be told for)');
  const road = args.values.road as string | undefined;
  if (road !== undefined && !(MESSAGE_ROADS as readonly string[]).includes(road)) throw new UsageError(`--road must be one of ${MESSAGE_ROADS.join(', ')}; got "${road}"`);
  const filter: MessageFilter = { orgId: unattributed ? null : uuidOption(args, 'org') };
  if (args.values.facility !== undefined) filter.facilityId = uuidOption(args, 'facility');
  const status = statusOption(args);
  if (status) filter.status = status;
  if (typeof args.values.type === 'string') filter.type = args.values.type.trim();
  const since = instantOption(args, 'since');
  if (since) filter.since = since;
  const until = instantOption(args, 'until');
  if (until) filter.until = until;
  if (args.values.resident !== undefined) filter.residentId = uuidOption(args, 'resident');
  if (road) filter.road = road as MessageRoad;
  return filter;
}

function messageIdArgument(args: ParsedArgs): string {
  const id = args.positionals[0]!;
  if (!isUuid(id)) throw new UsageError(`MESSAGE_ID must be a UUID, got "${id}"`);
  return id.toLowerCase();
}

const FILTER_OPTIONS = {
  org: { type: 'string' },
  unattributed: { type: 'boolean' },
  facility: { type: 'string' },
  status: { type: 'string' },
  type: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  resident: { type: 'string' },
  road: { type: 'string' },
} as const;

function line(m: MessageSummary): string {
  const from = m.source.peer ? `${m.source.sending_application ?? '-'}@${m.source.peer}` : (m.source.client_id ?? m.source.sending_application ?? '-');
  const status = m.current_status === m.status ? m.status : `${m.status}->${m.current_status}`;
  return `${m.id}  ${m.received_at}  ${m.road.padEnd(6)} ${m.message_type.padEnd(10)} ${(m.control_id ?? '-').padEnd(20)} ${m.answer_code.padEnd(4)} ${status.padEnd(24)} ${from}${m.reason ? `\n    ${m.reason}` : ''}`;
}

export const messagesList: Command = {
  name: 'messages list',
  summary: 'List inbound messages (HL7 v2, FHIR, X12), newest first: when, from whom, type, control id, answer, status and why refused. Never their content.',
  usage: `messages list --org ORG | --unattributed [--facility F] [--status ${MESSAGE_STATUSES.join('|')}] [--type ADT^A01] [--since T] [--until T] [--resident ID] [--road ${MESSAGE_ROADS.join('|')}] [--limit N] [--cursor C] [--json]`,
  options: { ...FILTER_OPTIONS, limit: { type: 'string' }, cursor: { type: 'string' } },
  async run(args, cli) {
    const filter = filterOf(args);
    filter.limit = positiveInteger(args, 'limit', 100);
    if (typeof args.values.cursor === 'string') filter.cursor = args.values.cursor;
    const db = await cli.db();
    try {
      return await listMessages(db, filter, viewer(db));
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (page: MessagePage) => [page.messages.map(line).join('\n') || '(no messages)', ...(page.next ? [`more: --cursor ${page.next}`] : [])].join('\n'),
};

export const messagesShow: Command = {
  name: 'messages show',
  summary: 'Show one message: metadata, the answer sent (ACK and ERR, HTTP status and OperationOutcome), the records it changed, its reprocesses; its content (PHI) only with --raw.',
  usage: 'messages show MESSAGE_ID [--raw] [--json]',
  options: { raw: { type: 'boolean' } },
  positionals: 1,
  async run(args, cli) {
    const id = messageIdArgument(args);
    const store = await messageStore(cli);
    const detail = await showMessage(store, id, { raw: args.values.raw === true }, viewer(store.db));
    if (!detail) throw new Error(`no message ${id}; find it with ops messages list`);
    return detail;
  },
  format: (m: MessageDetail) =>
    [
      line(m),
      `  source: ${[m.source.client_id && `credential ${m.source.client_id}`, m.source.peer && `peer ${m.source.peer}`, m.source.sending_application && `application ${m.source.sending_application}`, m.source.sending_facility && `facility ${m.source.sending_facility}`].filter(Boolean).join(', ') || '-'}`,
      `  organization ${m.org_id ?? '(unattributed)'}, facility ${m.facility_id ?? '-'}, ${m.size_bytes} bytes, resident ${m.resident_id ?? '-'}`,
      `  answer ${m.answer.code}${m.answer.errors.map((e) => `\n    ${e.severity} ${e.code}${e.where ? ` at ${e.where}` : ''}: ${e.text}`).join('')}`,
      `  records: ${m.records.map((r) => `${r.type}/${r.id} v${r.version} ${r.outcome}`).join(', ') || 'none'}`,
      ...m.outcomes.map((o) => `  reprocessed ${o.received_at} by ${o.reprocessed_by}: ${o.answer_code} ${o.status}${o.reason ? ` (${o.reason})` : ''}; records: ${o.records.map((r) => `${r.type}/${r.id} v${r.version} ${r.outcome}`).join(', ') || 'none'}`),
      ...(m.content ? ['', m.content.segments ? m.content.segments.map((s) => s.join(m.format === 'hl7v2' ? '|' : '*')).join('\n') : m.content.raw] : m.has_content ? [] : ['  (content purged)']),
    ].join('\n'),
};

export const messagesReprocess: Command = {
  name: 'messages reprocess',
  summary: 'Run stored messages through their road again (after fixing what refused them): one by id, or every message a filter finds (--status refused --since T). Each is applied once, however often it is reprocessed.',
  usage: `messages reprocess MESSAGE_ID | --org ORG|--unattributed --status refused [--since T] [--until T] [--facility F] [--type ADT^A01] [--limit N] [--json]`,
  options: { ...FILTER_OPTIONS, limit: { type: 'string' } },
  positionals: [0, 1],
  async run(args, cli) {
    const store = await messageStore(cli);
    let selection: ReprocessSelection;
    if (args.positionals.length === 1) {
      if (Object.keys(FILTER_OPTIONS).some((k) => args.values[k] !== undefined)) throw new UsageError('give a MESSAGE_ID or filters, not both');
      selection = { ids: [messageIdArgument(args)] };
    } else {
      const filter = filterOf(args);
      if (!filter.status) throw new UsageError('--status is required when reprocessing by filter (usually --status refused)');
      selection = { filter, limit: positiveInteger(args, 'limit', 500) };
    }
    const bound = sourceFacilities(cli.config.mllp?.sourceFacilities ?? []);
    try {
      const results = await reprocessMessages({ store, boundFacility: (peer) => (peer ? bound(sourceAddress(peer)) : undefined) }, selection, viewer(store.db));
      return { results };
    } catch (error) {
      if (error instanceof MessageNotFound || error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (r: { results: ReprocessResult[] }) =>
    r.results.map((x) => `${x.message_id}  ${x.answer_code.padEnd(9)} ${x.status.padEnd(22)} ${x.records.map((c) => `${c.type}/${c.id} v${c.version}`).join(', ')}${x.reason ? `\n    ${x.reason}` : ''}`).join('\n') || '(no messages to reprocess)',
};
